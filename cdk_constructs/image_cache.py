"""An ECR pull-through cache for Docker Hub, and what a node role needs to pull through it.

Sources (Amazon ECR User Guide unless named):

- "Creating a pull through cache rule in Amazon ECR" (pull-through-cache-creating-rule.html): Docker Hub's credentials
  in a Secrets Manager secret named ``ecr-pullthroughcache/...`` in the rule's account and region.
- "Sync an upstream registry with an Amazon ECR private registry" (pull-through-cache.html): the first pull creates the
  repository and caches the image; for later pulls of a tag ECR checks the upstream for a new version of that tag and
  updates the cached image at least once every 24 hours.
- "IAM permissions required to sync an upstream registry with an Amazon ECR private registry" (pull-through-cache-iam.html):
  besides the permissions to pull, ``ecr:BatchImportUpstreamImage`` (retrieve the upstream image and import it) and
  ``ecr:CreateRepository`` ("required if the repository storing the cached images doesn't already exist"), both
  grantable in an identity-based policy.
- "Creating a repository creation template in Amazon ECR" (repository-creation-templates-create.html): a template with
  a KMS key or resource tags needs a custom role; API reference RepositoryCreationTemplate.customRoleArn: "When this
  field isn't specified, Amazon ECR will use the service-linked role".
- "Encryption at rest" (encryption-at-rest.html): ``KMS`` without a key uses the AWS managed key for ECR (``aws/ecr``);
  ECR creates grants on the key for the repository itself and decrypts through them when an image is pulled, so the
  pulling principal needs no KMS permission.
- CloudFormation ``AWS::ECR::PullThroughCacheRule`` and ``AWS::ECR::RepositoryCreationTemplate`` (the resource schemas
  cfn-lint 1.58.0 ships): property names, ``UpstreamRegistry`` ``docker-hub``, ``AppliedFor`` ``PULL_THROUGH_CACHE``,
  ``ImageTagMutability`` ``MUTABLE``, ``LifecyclePolicy`` of 100 to 30720 characters.
- "Lifecycle policy properties" (lifecycle_policy_parameters.html): ``tagStatus: any``, ``countType:
  imageCountMoreThan``, action ``expire``.
"""

from __future__ import annotations

import json

import aws_cdk as cdk
from aws_cdk import aws_ecr as ecr
from aws_cdk import aws_iam as iam
from constructs import Construct

from cdk_constructs.nag_acknowledgements import acknowledge_image_cache_puller
from deployment_config.image_cache import UPSTREAM_REGISTRY, UPSTREAM_REGISTRY_URL

#: Images each cached repository keeps: the one running and two before it (a 20+ GB vLLM image each).
KEEP_IMAGES = 3
#: What a node needs beyond AmazonEC2ContainerRegistryReadOnly for a first pull through the cache.
PULL_THROUGH_ACTIONS = ("ecr:BatchImportUpstreamImage", "ecr:CreateRepository")


def lifecycle_policy(keep_images: int = KEEP_IMAGES) -> str:
    return json.dumps(
        {
            "rules": [
                {
                    "rulePriority": 1,
                    "description": f"Keep the {keep_images} most recent images of each cached repository",
                    "selection": {
                        "tagStatus": "any",
                        "countType": "imageCountMoreThan",
                        "countNumber": keep_images,
                    },
                    "action": {"type": "expire"},
                }
            ]
        },
        separators=(",", ":"),
    )


class DockerHubPullThroughCache(Construct):
    """A pull-through cache rule for Docker Hub under ``repository_prefix``, and the creation template that every
    repository the cache makes under that prefix gets.

    The template encrypts with KMS under the AWS managed key (``aws/ecr``): a customer key would need a custom role for
    ECR (kms:CreateGrant on the key) and grants nothing the nodes need. Tags stay mutable: the cache's job is to follow
    a tag upstream (ECR re-checks it at least once every 24 hours); an image pinned by digest is immutable anyway.
    """

    def __init__(
        self, scope: Construct, id: str, *, credentials_secret_arn: str, repository_prefix: str
    ) -> None:
        super().__init__(scope, id)
        self.repository_prefix = repository_prefix
        self.template = ecr.CfnRepositoryCreationTemplate(
            self,
            "RepositoryTemplate",
            prefix=repository_prefix,
            applied_for=["PULL_THROUGH_CACHE"],
            description=f"Repositories the Docker Hub pull-through cache creates under {repository_prefix}/",
            encryption_configuration=ecr.CfnRepositoryCreationTemplate.EncryptionConfigurationProperty(
                encryption_type="KMS"
            ),
            image_tag_mutability="MUTABLE",
            lifecycle_policy=lifecycle_policy(),
        )
        self.rule = ecr.CfnPullThroughCacheRule(
            self,
            "Rule",
            ecr_repository_prefix=repository_prefix,
            upstream_registry=UPSTREAM_REGISTRY,
            upstream_registry_url=UPSTREAM_REGISTRY_URL,
            credential_arn=credentials_secret_arn,
        )
        # The template is in place before the rule can create a repository.
        self.rule.add_dependency(self.template)


def cached_repositories_arn(scope: Construct, repository_prefix: str) -> str:
    """Every repository under the cache's prefix in the account and region of ``scope``'s stack."""
    return cdk.Stack.of(scope).format_arn(
        service="ecr", resource="repository", resource_name=f"{repository_prefix}/*"
    )


def grant_pull_through(role: iam.IRole, repository_prefix: str) -> None:
    """Let a node role make the first pull of an image through the cache (the role already reads ECR through
    AmazonEC2ContainerRegistryReadOnly): import the upstream image and create its repository, under the prefix only."""
    role.add_to_principal_policy(
        iam.PolicyStatement(
            sid="PullThroughDockerHubCache",
            actions=list(PULL_THROUGH_ACTIONS),
            resources=[cached_repositories_arn(role, repository_prefix)],
        )
    )
    acknowledge_image_cache_puller(role, repository_prefix)
