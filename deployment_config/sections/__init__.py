"""The sections of the configuration files, one module each, as pydantic models: one definition for the loader, the
JSON Schema and the stacks (see :mod:`deployment_config.file_models`, which names them all)."""
