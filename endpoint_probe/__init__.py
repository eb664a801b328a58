"""The endpoint probe: the checks of an OpenAI-compatible endpoint that both ``llmops smoke-test`` / ``llmops bench``
and the deploy-time smoke test's Lambda function run (cdk_constructs/deploy_time_smoke_test/).

Standard library only, and nothing of the project outside this package (tests/endpoint_probe/test_endpoint_probe.py walks every
module's imports): the Lambda function carries this package whole, where there is no ops_cli, no deployment_config and
no jsonschema. What needs the AWS SDK (reading the API key's secret) is the CLI's (ops_cli/api_key_secret.py) and the
function's own (cdk_constructs/deploy_time_smoke_test/runtime/).

- url.py: the URL, the TLS settings and the API key, checked before anything is sent;
- http.py, call.py, watchdog.py and response.py: one request under one deadline (connecting, TLS, the watchdog that
  ends it), its answer read bounded;
- deadline.py: the command's deadline (``--timeout``); redaction.py: no secret in a message;
- answers.py, completions.py, smoke.py: the smoke test; correctness.py: the correctness probe of ``llmops bench``
  and the promotion gate; load_test_result.py: the figures of a ``vllm bench serve`` run;
- errors.py: the exit codes and the errors every check raises.
"""
