"""Typed configuration of the environments this app deploys, validated once when it is loaded."""

from deployment_config.errors import ConfigError
from deployment_config.loader import DEFAULT_ENVIRONMENT, load_environment, parse_environment
from deployment_config.model import EnvironmentConfig

__all__ = [
    "ConfigError",
    "DEFAULT_ENVIRONMENT",
    "EnvironmentConfig",
    "load_environment",
    "parse_environment",
]
