"""Typed bindings generated from Kubernetes CRDs with ``cdk8s import`` (see SOURCE.json; regenerate with
``make crd-bindings``). Generated code: not edited by hand, not linted."""
