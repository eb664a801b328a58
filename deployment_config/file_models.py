"""The shape of the configuration files, as pydantic models: one definition for the loader and the JSON Schema.

The loader validates a parsed file against :class:`EnvironmentFile` (or :class:`PipelineFile`) and reports every
mistake at once; ``python -m deployment_config.schema`` writes the same definitions as JSON Schema files under
``schema/`` for editors. Each section is a module of :mod:`deployment_config.sections`; this module names them all.

The models check each field on its own; the rules between fields (a zone of the region, the reservation's zone among
the VPC's zones, a training plan of the same account and region) are :mod:`deployment_config.cross_section_rules`, run
after every field is validated, so the order of the fields is the order of the file's keys, nothing more. The
validation context carries one thing: the list of notes (``report``) a field's check makes about its items.
"""

from deployment_config.sections._fields import fail, report
from deployment_config.sections.bridge import BridgeSection
from deployment_config.sections.capacity import CapacitySection
from deployment_config.sections.cluster import ClusterSection
from deployment_config.sections.endpoint import (
    CERTIFICATE_ID,
    DEFAULT_DRAIN_SECONDS,
    DOMAIN_NAME_PATTERN,
    MAX_DRAIN_SECONDS,
    EndpointSection,
    domain_name_problem,
)
from deployment_config.sections.environment import (
    DEFAULT_KUBERNETES_VERSION,
    HYPERPOD_KUBERNETES_VERSIONS,
    PRIVATE_SUBNET_PREFIX,
    PUBLIC_SUBNET_PREFIX,
    RESERVED_TAG_KEYS,
    SUPPORTED_KUBERNETES_VERSIONS,
    EnvironmentFile,
    vpc_addresses_needed,
)
from deployment_config.sections.hyperpod import (
    TRAINING_PLAN_RESOURCE,
    VOLUME_HEADROOM_GB,
    AutoscalingSection,
    HyperPodSection,
)
from deployment_config.sections.model import (
    SECRET_ARN_RESOURCE,
    SECRET_NAME,
    ImageCacheSection,
    ModelSection,
)
from deployment_config.sections.observability import (
    LOG_RETENTION_DAYS,
    MAX_BUDGET_SUBSCRIBERS,
    MAX_MONTHLY_BUDGET_USD,
    ObservabilitySection,
)
from deployment_config.sections.pipeline import PipelineFile, SourceSection, WaveSection
from deployment_config.sections.promotion_gate import (
    PromotionGateRunSection,
    PromotionGateSection,
    promotion_gate_config,
)

__all__ = [
    "CERTIFICATE_ID",
    "DEFAULT_DRAIN_SECONDS",
    "DEFAULT_KUBERNETES_VERSION",
    "DOMAIN_NAME_PATTERN",
    "HYPERPOD_KUBERNETES_VERSIONS",
    "LOG_RETENTION_DAYS",
    "MAX_BUDGET_SUBSCRIBERS",
    "MAX_DRAIN_SECONDS",
    "MAX_MONTHLY_BUDGET_USD",
    "PRIVATE_SUBNET_PREFIX",
    "PUBLIC_SUBNET_PREFIX",
    "RESERVED_TAG_KEYS",
    "SECRET_ARN_RESOURCE",
    "SECRET_NAME",
    "SUPPORTED_KUBERNETES_VERSIONS",
    "TRAINING_PLAN_RESOURCE",
    "VOLUME_HEADROOM_GB",
    "AutoscalingSection",
    "BridgeSection",
    "CapacitySection",
    "ClusterSection",
    "EndpointSection",
    "EnvironmentFile",
    "HyperPodSection",
    "ImageCacheSection",
    "ModelSection",
    "ObservabilitySection",
    "PipelineFile",
    "PromotionGateRunSection",
    "PromotionGateSection",
    "SourceSection",
    "WaveSection",
    "domain_name_problem",
    "fail",
    "promotion_gate_config",
    "report",
    "vpc_addresses_needed",
]
