"""cdk8s charts: the Kubernetes workloads deployed onto the clusters the CDK stacks create."""
