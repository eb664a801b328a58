"""llmops: find and buy GPU capacity, preflight an environment, wait for it, and smoke-test the endpoint.

Everything CloudFormation cannot do, driven through boto3. Run it as ``bin/llmops`` (or ``python -m ops_cli``).
"""

#: The version `llmops --version` prints and pyproject.toml packages (its one source).
__version__ = "0.5.0"
