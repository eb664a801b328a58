"""llmops: find and buy GPU capacity, preflight an environment, wait for it, and smoke-test the endpoint.

Everything CloudFormation cannot do, driven through boto3. Run it as ``bin/llmops`` (or ``python -m ops_cli``).
"""
