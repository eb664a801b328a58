from __future__ import annotations

from pkgutil import extend_path
__path__ = extend_path(__path__, __name__)

import abc
import builtins
import datetime
import enum
import typing

import jsii
import publication
import typing_extensions

from jsii._type_checking import cached_type_hints, check_type


from ._jsii import *

class _LazyImport:
    def __init__(self, module_name: str) -> None:
        self._module_name = module_name
        self._module: typing.Any = None
    def __getattr__(self, name: str) -> typing.Any:
        if self._module is None:
            import importlib
            self._module = importlib.import_module(self._module_name)
        return getattr(self._module, name)

if typing.TYPE_CHECKING:

    import cdk8s as _cdk8s_d3d9af27
    import constructs as _constructs_77d1e7e8
else:

    _cdk8s_d3d9af27 = _LazyImport("cdk8s")
    _constructs_77d1e7e8 = _LazyImport("constructs")


class InferenceEndpointConfig(
    _cdk8s_d3d9af27.ApiObject,
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfig",
):
    '''InferenceEndpointConfig is the Schema for the inferenceendpointconfigs API.

    :schema: InferenceEndpointConfig
    '''

    def __init__(
        self,
        scope: "_constructs_77d1e7e8.Construct",
        id: builtins.str,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigSpec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Defines a "InferenceEndpointConfig" API object.

        :param scope: the scope in which to define this object.
        :param id: a scope-local name for the object.
        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__daa337cd14da4abff9ddae38be1a1cb40467b1433a1a123358738fbf473d450d)
            check_type(argname="argument scope", value=scope, expected_type=type_hints["scope"])
            check_type(argname="argument id", value=id, expected_type=type_hints["id"])
        props = InferenceEndpointConfigProps(metadata=metadata, spec=spec)

        jsii.create(self.__class__, self, [scope, id, props])

    @jsii.member(jsii_name="manifest")
    @builtins.classmethod
    def manifest(
        cls,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigSpec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> typing.Any:
        '''Renders a Kubernetes manifest for "InferenceEndpointConfig".

        This can be used to inline resource manifests inside other objects (e.g. as templates).

        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.
        '''
        props = InferenceEndpointConfigProps(metadata=metadata, spec=spec)

        return typing.cast(typing.Any, jsii.sinvoke(cls, "manifest", [props]))

    @jsii.member(jsii_name="toJson")
    def to_json(self) -> typing.Any:
        '''Renders the object to Kubernetes JSON.'''
        return typing.cast(typing.Any, jsii.invoke(self, "toJson", []))

    @jsii.python.classproperty
    @jsii.member(jsii_name="GVK")
    def GVK(cls) -> "_cdk8s_d3d9af27.GroupVersionKind":
        '''Returns the apiVersion and kind for "InferenceEndpointConfig".'''
        return typing.cast("_cdk8s_d3d9af27.GroupVersionKind", jsii.sget(cls, "GVK"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigProps",
    jsii_struct_bases=[],
    name_mapping={"metadata": "metadata", "spec": "spec"},
)
class InferenceEndpointConfigProps:
    def __init__(
        self,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigSpec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''InferenceEndpointConfig is the Schema for the inferenceendpointconfigs API.

        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :schema: InferenceEndpointConfig
        '''
        if isinstance(metadata, dict):
            metadata = _cdk8s_d3d9af27.ApiObjectMetadata(**metadata)
        if isinstance(spec, dict):
            spec = InferenceEndpointConfigSpec(**spec)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__844522c3b3bc9c5de96fb93fbeeef6148eae441e6cbcb75c0c94249ca75af42c)
            check_type(argname="argument metadata", value=metadata, expected_type=type_hints["metadata"])
            check_type(argname="argument spec", value=spec, expected_type=type_hints["spec"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if metadata is not None:
            self._values["metadata"] = metadata
        if spec is not None:
            self._values["spec"] = spec

    @builtins.property
    def metadata(self) -> typing.Optional["_cdk8s_d3d9af27.ApiObjectMetadata"]:
        '''
        :schema: InferenceEndpointConfig#metadata
        '''
        result = self._values.get("metadata")
        return typing.cast(typing.Optional["_cdk8s_d3d9af27.ApiObjectMetadata"], result)

    @builtins.property
    def spec(self) -> typing.Optional["InferenceEndpointConfigSpec"]:
        '''InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :schema: InferenceEndpointConfig#spec
        '''
        result = self._values.get("spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpec"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigProps(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpec",
    jsii_struct_bases=[],
    name_mapping={
        "model_name": "modelName",
        "model_source_config": "modelSourceConfig",
        "worker": "worker",
        "auto_scaling_spec": "autoScalingSpec",
        "endpoint_name": "endpointName",
        "initial_replica_count": "initialReplicaCount",
        "instance_type": "instanceType",
        "instance_types": "instanceTypes",
        "intelligent_routing_spec": "intelligentRoutingSpec",
        "invocation_endpoint": "invocationEndpoint",
        "kv_cache_spec": "kvCacheSpec",
        "load_balancer": "loadBalancer",
        "max_deploy_time_in_seconds": "maxDeployTimeInSeconds",
        "metrics": "metrics",
        "model_version": "modelVersion",
        "node_affinity": "nodeAffinity",
        "replicas": "replicas",
        "tags": "tags",
        "tls_config": "tlsConfig",
    },
)
class InferenceEndpointConfigSpec:
    def __init__(
        self,
        *,
        model_name: builtins.str,
        model_source_config: typing.Union["InferenceEndpointConfigSpecModelSourceConfig", typing.Dict[builtins.str, typing.Any]],
        worker: typing.Union["InferenceEndpointConfigSpecWorker", typing.Dict[builtins.str, typing.Any]],
        auto_scaling_spec: typing.Optional[typing.Union["InferenceEndpointConfigSpecAutoScalingSpec", typing.Dict[builtins.str, typing.Any]]] = None,
        endpoint_name: typing.Optional[builtins.str] = None,
        initial_replica_count: typing.Optional[jsii.Number] = None,
        instance_type: typing.Optional[builtins.str] = None,
        instance_types: typing.Optional[typing.Sequence[builtins.str]] = None,
        intelligent_routing_spec: typing.Optional[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpec", typing.Dict[builtins.str, typing.Any]]] = None,
        invocation_endpoint: typing.Optional[builtins.str] = None,
        kv_cache_spec: typing.Optional[typing.Union["InferenceEndpointConfigSpecKvCacheSpec", typing.Dict[builtins.str, typing.Any]]] = None,
        load_balancer: typing.Optional[typing.Union["InferenceEndpointConfigSpecLoadBalancer", typing.Dict[builtins.str, typing.Any]]] = None,
        max_deploy_time_in_seconds: typing.Optional[jsii.Number] = None,
        metrics: typing.Optional[typing.Union["InferenceEndpointConfigSpecMetrics", typing.Dict[builtins.str, typing.Any]]] = None,
        model_version: typing.Optional[builtins.str] = None,
        node_affinity: typing.Optional[typing.Union["InferenceEndpointConfigSpecNodeAffinity", typing.Dict[builtins.str, typing.Any]]] = None,
        replicas: typing.Optional[jsii.Number] = None,
        tags: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecTags", typing.Dict[builtins.str, typing.Any]]]] = None,
        tls_config: typing.Optional[typing.Union["InferenceEndpointConfigSpecTlsConfig", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :param model_name: Name of model that will be created on Sagemaker.
        :param model_source_config: 
        :param worker: Details of the worker.
        :param auto_scaling_spec: 
        :param endpoint_name: Name used for Sagemaker Endpoint Name of sagemaker endpoint. Defaults to empty string which represents that Sagemaker endpoint will not be created. Default: empty string which represents that Sagemaker endpoint will not be created.
        :param initial_replica_count: Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1. Default: 1.
        :param instance_type: Single instance type to deploy the model on. This field is mutually exclusive with instanceTypes. Use this when you want to deploy on a specific instance type.
        :param instance_types: List of instance types to deploy the model on, in order of preference. Instance types are selected based on the order specified, selecting the first available type.
        :param intelligent_routing_spec: Configuration for intelligent routing This feature is currently not supported for existing deployments. Adding this configuration to an existing deployment will be rejected.
        :param invocation_endpoint: The invocation endpoint of the model server. http://:/ would be pre-populated based on the other fields. Please fill in the path after http://:/ specific to your model server.
        :param kv_cache_spec: Configuration for KV Cache specification By default L1CacheOffloading will be enabled.
        :param load_balancer: Configuration for Application Load Balancer.
        :param max_deploy_time_in_seconds: Maximum allowed time in seconds for the deployment to complete before timing out. Defaults to 1 hour (3600 seconds) Default: 1 hour (3600 seconds)
        :param metrics: Configuration for metrics collection and exposure.
        :param model_version: Version of the model used in creating sagemaker endpoint.
        :param node_affinity: Custom node affinity configuration for advanced scheduling. This field is mutually exclusive with instanceType and instanceTypes fields.
        :param replicas: The desired number of inference server replicas. Default 1.
        :param tags: Mentions the tags to be added to the Sagemaker Endpoint.
        :param tls_config: Configurations for TLS.

        :schema: InferenceEndpointConfigSpec
        '''
        if isinstance(model_source_config, dict):
            model_source_config = InferenceEndpointConfigSpecModelSourceConfig(**model_source_config)
        if isinstance(worker, dict):
            worker = InferenceEndpointConfigSpecWorker(**worker)
        if isinstance(auto_scaling_spec, dict):
            auto_scaling_spec = InferenceEndpointConfigSpecAutoScalingSpec(**auto_scaling_spec)
        if isinstance(intelligent_routing_spec, dict):
            intelligent_routing_spec = InferenceEndpointConfigSpecIntelligentRoutingSpec(**intelligent_routing_spec)
        if isinstance(kv_cache_spec, dict):
            kv_cache_spec = InferenceEndpointConfigSpecKvCacheSpec(**kv_cache_spec)
        if isinstance(load_balancer, dict):
            load_balancer = InferenceEndpointConfigSpecLoadBalancer(**load_balancer)
        if isinstance(metrics, dict):
            metrics = InferenceEndpointConfigSpecMetrics(**metrics)
        if isinstance(node_affinity, dict):
            node_affinity = InferenceEndpointConfigSpecNodeAffinity(**node_affinity)
        if isinstance(tls_config, dict):
            tls_config = InferenceEndpointConfigSpecTlsConfig(**tls_config)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ad600e1e53867817782818831d56c2b20332d59c8660e9e5c7990e408cec5cb1)
            check_type(argname="argument model_name", value=model_name, expected_type=type_hints["model_name"])
            check_type(argname="argument model_source_config", value=model_source_config, expected_type=type_hints["model_source_config"])
            check_type(argname="argument worker", value=worker, expected_type=type_hints["worker"])
            check_type(argname="argument auto_scaling_spec", value=auto_scaling_spec, expected_type=type_hints["auto_scaling_spec"])
            check_type(argname="argument endpoint_name", value=endpoint_name, expected_type=type_hints["endpoint_name"])
            check_type(argname="argument initial_replica_count", value=initial_replica_count, expected_type=type_hints["initial_replica_count"])
            check_type(argname="argument instance_type", value=instance_type, expected_type=type_hints["instance_type"])
            check_type(argname="argument instance_types", value=instance_types, expected_type=type_hints["instance_types"])
            check_type(argname="argument intelligent_routing_spec", value=intelligent_routing_spec, expected_type=type_hints["intelligent_routing_spec"])
            check_type(argname="argument invocation_endpoint", value=invocation_endpoint, expected_type=type_hints["invocation_endpoint"])
            check_type(argname="argument kv_cache_spec", value=kv_cache_spec, expected_type=type_hints["kv_cache_spec"])
            check_type(argname="argument load_balancer", value=load_balancer, expected_type=type_hints["load_balancer"])
            check_type(argname="argument max_deploy_time_in_seconds", value=max_deploy_time_in_seconds, expected_type=type_hints["max_deploy_time_in_seconds"])
            check_type(argname="argument metrics", value=metrics, expected_type=type_hints["metrics"])
            check_type(argname="argument model_version", value=model_version, expected_type=type_hints["model_version"])
            check_type(argname="argument node_affinity", value=node_affinity, expected_type=type_hints["node_affinity"])
            check_type(argname="argument replicas", value=replicas, expected_type=type_hints["replicas"])
            check_type(argname="argument tags", value=tags, expected_type=type_hints["tags"])
            check_type(argname="argument tls_config", value=tls_config, expected_type=type_hints["tls_config"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "model_name": model_name,
            "model_source_config": model_source_config,
            "worker": worker,
        }
        if auto_scaling_spec is not None:
            self._values["auto_scaling_spec"] = auto_scaling_spec
        if endpoint_name is not None:
            self._values["endpoint_name"] = endpoint_name
        if initial_replica_count is not None:
            self._values["initial_replica_count"] = initial_replica_count
        if instance_type is not None:
            self._values["instance_type"] = instance_type
        if instance_types is not None:
            self._values["instance_types"] = instance_types
        if intelligent_routing_spec is not None:
            self._values["intelligent_routing_spec"] = intelligent_routing_spec
        if invocation_endpoint is not None:
            self._values["invocation_endpoint"] = invocation_endpoint
        if kv_cache_spec is not None:
            self._values["kv_cache_spec"] = kv_cache_spec
        if load_balancer is not None:
            self._values["load_balancer"] = load_balancer
        if max_deploy_time_in_seconds is not None:
            self._values["max_deploy_time_in_seconds"] = max_deploy_time_in_seconds
        if metrics is not None:
            self._values["metrics"] = metrics
        if model_version is not None:
            self._values["model_version"] = model_version
        if node_affinity is not None:
            self._values["node_affinity"] = node_affinity
        if replicas is not None:
            self._values["replicas"] = replicas
        if tags is not None:
            self._values["tags"] = tags
        if tls_config is not None:
            self._values["tls_config"] = tls_config

    @builtins.property
    def model_name(self) -> builtins.str:
        '''Name of model that will be created on Sagemaker.

        :schema: InferenceEndpointConfigSpec#modelName
        '''
        result = self._values.get("model_name")
        assert result is not None, "Required property 'model_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def model_source_config(self) -> "InferenceEndpointConfigSpecModelSourceConfig":
        '''
        :schema: InferenceEndpointConfigSpec#modelSourceConfig
        '''
        result = self._values.get("model_source_config")
        assert result is not None, "Required property 'model_source_config' is missing"
        return typing.cast("InferenceEndpointConfigSpecModelSourceConfig", result)

    @builtins.property
    def worker(self) -> "InferenceEndpointConfigSpecWorker":
        '''Details of the worker.

        :schema: InferenceEndpointConfigSpec#worker
        '''
        result = self._values.get("worker")
        assert result is not None, "Required property 'worker' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorker", result)

    @builtins.property
    def auto_scaling_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpec"]:
        '''
        :schema: InferenceEndpointConfigSpec#autoScalingSpec
        '''
        result = self._values.get("auto_scaling_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpec"], result)

    @builtins.property
    def endpoint_name(self) -> typing.Optional[builtins.str]:
        '''Name used for Sagemaker Endpoint Name of sagemaker endpoint.

        Defaults to empty string which represents that Sagemaker endpoint will not be created.

        :default: empty string which represents that Sagemaker endpoint will not be created.

        :schema: InferenceEndpointConfigSpec#endpointName
        '''
        result = self._values.get("endpoint_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def initial_replica_count(self) -> typing.Optional[jsii.Number]:
        '''Number of desired pods.

        This is a pointer to distinguish between explicit
        zero and not specified. Defaults to 1.

        :default: 1.

        :schema: InferenceEndpointConfigSpec#InitialReplicaCount
        '''
        result = self._values.get("initial_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def instance_type(self) -> typing.Optional[builtins.str]:
        '''Single instance type to deploy the model on.

        This field is mutually exclusive with instanceTypes. Use this when you want to deploy on a specific instance type.

        :schema: InferenceEndpointConfigSpec#instanceType
        '''
        result = self._values.get("instance_type")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def instance_types(self) -> typing.Optional[typing.List[builtins.str]]:
        '''List of instance types to deploy the model on, in order of preference.

        Instance types are selected based on the order specified, selecting the first available type.

        :schema: InferenceEndpointConfigSpec#instanceTypes
        '''
        result = self._values.get("instance_types")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    @builtins.property
    def intelligent_routing_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpec"]:
        '''Configuration for intelligent routing This feature is currently not supported for existing deployments.

        Adding this configuration to an existing deployment will be rejected.

        :schema: InferenceEndpointConfigSpec#intelligentRoutingSpec
        '''
        result = self._values.get("intelligent_routing_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpec"], result)

    @builtins.property
    def invocation_endpoint(self) -> typing.Optional[builtins.str]:
        '''The invocation endpoint of the model server.

        http://:/ would be pre-populated based on the other fields.
        Please fill in the path after http://:/ specific to your model server.

        :schema: InferenceEndpointConfigSpec#invocationEndpoint
        '''
        result = self._values.get("invocation_endpoint")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def kv_cache_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecKvCacheSpec"]:
        '''Configuration for KV Cache specification By default L1CacheOffloading will be enabled.

        :schema: InferenceEndpointConfigSpec#kvCacheSpec
        '''
        result = self._values.get("kv_cache_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecKvCacheSpec"], result)

    @builtins.property
    def load_balancer(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecLoadBalancer"]:
        '''Configuration for Application Load Balancer.

        :schema: InferenceEndpointConfigSpec#loadBalancer
        '''
        result = self._values.get("load_balancer")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecLoadBalancer"], result)

    @builtins.property
    def max_deploy_time_in_seconds(self) -> typing.Optional[jsii.Number]:
        '''Maximum allowed time in seconds for the deployment to complete before timing out.

        Defaults to 1 hour (3600 seconds)

        :default: 1 hour (3600 seconds)

        :schema: InferenceEndpointConfigSpec#maxDeployTimeInSeconds
        '''
        result = self._values.get("max_deploy_time_in_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metrics(self) -> typing.Optional["InferenceEndpointConfigSpecMetrics"]:
        '''Configuration for metrics collection and exposure.

        :schema: InferenceEndpointConfigSpec#metrics
        '''
        result = self._values.get("metrics")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecMetrics"], result)

    @builtins.property
    def model_version(self) -> typing.Optional[builtins.str]:
        '''Version of the model used in creating sagemaker endpoint.

        :schema: InferenceEndpointConfigSpec#modelVersion
        '''
        result = self._values.get("model_version")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def node_affinity(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecNodeAffinity"]:
        '''Custom node affinity configuration for advanced scheduling.

        This field is mutually exclusive with instanceType and instanceTypes fields.

        :schema: InferenceEndpointConfigSpec#nodeAffinity
        '''
        result = self._values.get("node_affinity")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecNodeAffinity"], result)

    @builtins.property
    def replicas(self) -> typing.Optional[jsii.Number]:
        '''The desired number of inference server replicas.

        Default 1.

        :schema: InferenceEndpointConfigSpec#replicas
        '''
        result = self._values.get("replicas")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def tags(self) -> typing.Optional[typing.List["InferenceEndpointConfigSpecTags"]]:
        '''Mentions the tags to be added to the Sagemaker Endpoint.

        :schema: InferenceEndpointConfigSpec#tags
        '''
        result = self._values.get("tags")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecTags"]], result)

    @builtins.property
    def tls_config(self) -> typing.Optional["InferenceEndpointConfigSpecTlsConfig"]:
        '''Configurations for TLS.

        :schema: InferenceEndpointConfigSpec#tlsConfig
        '''
        result = self._values.get("tls_config")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecTlsConfig"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpec",
    jsii_struct_bases=[],
    name_mapping={
        "cloud_watch_trigger": "cloudWatchTrigger",
        "cloud_watch_trigger_list": "cloudWatchTriggerList",
        "cooldown_period": "cooldownPeriod",
        "initial_cooldown_period": "initialCooldownPeriod",
        "max_replica_count": "maxReplicaCount",
        "min_replica_count": "minReplicaCount",
        "polling_interval": "pollingInterval",
        "prometheus_trigger": "prometheusTrigger",
        "prometheus_trigger_list": "prometheusTriggerList",
        "scale_down_stabilization_time": "scaleDownStabilizationTime",
        "scale_up_stabilization_time": "scaleUpStabilizationTime",
    },
)
class InferenceEndpointConfigSpecAutoScalingSpec:
    def __init__(
        self,
        *,
        cloud_watch_trigger: typing.Optional[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        cloud_watch_trigger_list: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList", typing.Dict[builtins.str, typing.Any]]]] = None,
        cooldown_period: typing.Optional[jsii.Number] = None,
        initial_cooldown_period: typing.Optional[jsii.Number] = None,
        max_replica_count: typing.Optional[jsii.Number] = None,
        min_replica_count: typing.Optional[jsii.Number] = None,
        polling_interval: typing.Optional[jsii.Number] = None,
        prometheus_trigger: typing.Optional[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        prometheus_trigger_list: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList", typing.Dict[builtins.str, typing.Any]]]] = None,
        scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
        scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''
        :param cloud_watch_trigger: CloudWatch metric trigger to use for autoscaling.
        :param cloud_watch_trigger_list: Multiple CloudWatch metric triggers to use for autoscaling. Takes priority over CloudWatchTrigger if both are provided.
        :param cooldown_period: The period to wait after the last trigger reported active before scaling the resource back to 0. Default 300 seconds.
        :param initial_cooldown_period: The delay before the cooldownPeriod starts after the initial creation of the ScaledObject. Default 300 seconds.
        :param max_replica_count: The maximum number of model pods to scale to. Default 5.
        :param min_replica_count: The minimum number of model pods to scale down to. Default 1.
        :param polling_interval: This is the interval to check each trigger on. Default 30 seconds.
        :param prometheus_trigger: Prometheus metric trigger to use for autoscaling.
        :param prometheus_trigger_list: Multiple Prometheus metric triggers to use for autoscaling. Takes priority over PrometheusTrigger if both are provided.
        :param scale_down_stabilization_time: The time window to stabilize for HPA before scaling down. Default 300 seconds.
        :param scale_up_stabilization_time: The time window to stabilize for HPA before scaling up. Default 0 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec
        '''
        if isinstance(cloud_watch_trigger, dict):
            cloud_watch_trigger = InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger(**cloud_watch_trigger)
        if isinstance(prometheus_trigger, dict):
            prometheus_trigger = InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger(**prometheus_trigger)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6550ec00631a82b4095124caab7ae2e99c78e3946f141a32d60b33b955e5abd5)
            check_type(argname="argument cloud_watch_trigger", value=cloud_watch_trigger, expected_type=type_hints["cloud_watch_trigger"])
            check_type(argname="argument cloud_watch_trigger_list", value=cloud_watch_trigger_list, expected_type=type_hints["cloud_watch_trigger_list"])
            check_type(argname="argument cooldown_period", value=cooldown_period, expected_type=type_hints["cooldown_period"])
            check_type(argname="argument initial_cooldown_period", value=initial_cooldown_period, expected_type=type_hints["initial_cooldown_period"])
            check_type(argname="argument max_replica_count", value=max_replica_count, expected_type=type_hints["max_replica_count"])
            check_type(argname="argument min_replica_count", value=min_replica_count, expected_type=type_hints["min_replica_count"])
            check_type(argname="argument polling_interval", value=polling_interval, expected_type=type_hints["polling_interval"])
            check_type(argname="argument prometheus_trigger", value=prometheus_trigger, expected_type=type_hints["prometheus_trigger"])
            check_type(argname="argument prometheus_trigger_list", value=prometheus_trigger_list, expected_type=type_hints["prometheus_trigger_list"])
            check_type(argname="argument scale_down_stabilization_time", value=scale_down_stabilization_time, expected_type=type_hints["scale_down_stabilization_time"])
            check_type(argname="argument scale_up_stabilization_time", value=scale_up_stabilization_time, expected_type=type_hints["scale_up_stabilization_time"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if cloud_watch_trigger is not None:
            self._values["cloud_watch_trigger"] = cloud_watch_trigger
        if cloud_watch_trigger_list is not None:
            self._values["cloud_watch_trigger_list"] = cloud_watch_trigger_list
        if cooldown_period is not None:
            self._values["cooldown_period"] = cooldown_period
        if initial_cooldown_period is not None:
            self._values["initial_cooldown_period"] = initial_cooldown_period
        if max_replica_count is not None:
            self._values["max_replica_count"] = max_replica_count
        if min_replica_count is not None:
            self._values["min_replica_count"] = min_replica_count
        if polling_interval is not None:
            self._values["polling_interval"] = polling_interval
        if prometheus_trigger is not None:
            self._values["prometheus_trigger"] = prometheus_trigger
        if prometheus_trigger_list is not None:
            self._values["prometheus_trigger_list"] = prometheus_trigger_list
        if scale_down_stabilization_time is not None:
            self._values["scale_down_stabilization_time"] = scale_down_stabilization_time
        if scale_up_stabilization_time is not None:
            self._values["scale_up_stabilization_time"] = scale_up_stabilization_time

    @builtins.property
    def cloud_watch_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger"]:
        '''CloudWatch metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#cloudWatchTrigger
        '''
        result = self._values.get("cloud_watch_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger"], result)

    @builtins.property
    def cloud_watch_trigger_list(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList"]]:
        '''Multiple CloudWatch metric triggers to use for autoscaling.

        Takes priority over CloudWatchTrigger if both are provided.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#cloudWatchTriggerList
        '''
        result = self._values.get("cloud_watch_trigger_list")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList"]], result)

    @builtins.property
    def cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The period to wait after the last trigger reported active before scaling the resource back to 0.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#cooldownPeriod
        '''
        result = self._values.get("cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def initial_cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The delay before the cooldownPeriod starts after the initial creation of the ScaledObject.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#initialCooldownPeriod
        '''
        result = self._values.get("initial_cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def max_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The maximum number of model pods to scale to.

        Default 5.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#maxReplicaCount
        '''
        result = self._values.get("max_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def min_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The minimum number of model pods to scale down to.

        Default 1.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#minReplicaCount
        '''
        result = self._values.get("min_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def polling_interval(self) -> typing.Optional[jsii.Number]:
        '''This is the interval to check each trigger on.

        Default 30 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#pollingInterval
        '''
        result = self._values.get("polling_interval")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def prometheus_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger"]:
        '''Prometheus metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#prometheusTrigger
        '''
        result = self._values.get("prometheus_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger"], result)

    @builtins.property
    def prometheus_trigger_list(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList"]]:
        '''Multiple Prometheus metric triggers to use for autoscaling.

        Takes priority over PrometheusTrigger if both are provided.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#prometheusTriggerList
        '''
        result = self._values.get("prometheus_trigger_list")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList"]], result)

    @builtins.property
    def scale_down_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling down.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#scaleDownStabilizationTime
        '''
        result = self._values.get("scale_down_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def scale_up_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling up.

        Default 0 seconds.

        :schema: InferenceEndpointConfigSpecAutoScalingSpec#scaleUpStabilizationTime
        '''
        result = self._values.get("scale_up_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "dimensions": "dimensions",
        "metric_collection_period": "metricCollectionPeriod",
        "metric_collection_start_time": "metricCollectionStartTime",
        "metric_name": "metricName",
        "metric_stat": "metricStat",
        "metric_type": "metricType",
        "min_value": "minValue",
        "name": "name",
        "namespace": "namespace",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        dimensions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions", typing.Dict[builtins.str, typing.Any]]]] = None,
        metric_collection_period: typing.Optional[jsii.Number] = None,
        metric_collection_start_time: typing.Optional[jsii.Number] = None,
        metric_name: typing.Optional[builtins.str] = None,
        metric_stat: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType"] = None,
        min_value: typing.Optional[jsii.Number] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''CloudWatch metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for CloudWatch metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param dimensions: Dimensions for Cloudwatch metrics.
        :param metric_collection_period: Defines the Period for CloudWatch query.
        :param metric_collection_start_time: Defines the StartTime for CloudWatch query.
        :param metric_name: Metric name to query for Cloudwatch trigger.
        :param metric_stat: Statistics metric to be used by Trigger. Used to define Stat for CloudWatch query. Default is Average. Default: Average.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param min_value: Minimum metric value used in case of empty response from CloudWatch. Default is 0. Default: 0.
        :param name: Name for the CloudWatch trigger.
        :param namespace: AWS CloudWatch namespace for metric.
        :param target_value: TargetValue for CloudWatch metric.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__58a6f5c72de8cd9f05473073e322bcdfe75e8f46c7ce5821733a8a1dbfb1cc62)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument dimensions", value=dimensions, expected_type=type_hints["dimensions"])
            check_type(argname="argument metric_collection_period", value=metric_collection_period, expected_type=type_hints["metric_collection_period"])
            check_type(argname="argument metric_collection_start_time", value=metric_collection_start_time, expected_type=type_hints["metric_collection_start_time"])
            check_type(argname="argument metric_name", value=metric_name, expected_type=type_hints["metric_name"])
            check_type(argname="argument metric_stat", value=metric_stat, expected_type=type_hints["metric_stat"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument min_value", value=min_value, expected_type=type_hints["min_value"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if dimensions is not None:
            self._values["dimensions"] = dimensions
        if metric_collection_period is not None:
            self._values["metric_collection_period"] = metric_collection_period
        if metric_collection_start_time is not None:
            self._values["metric_collection_start_time"] = metric_collection_start_time
        if metric_name is not None:
            self._values["metric_name"] = metric_name
        if metric_stat is not None:
            self._values["metric_stat"] = metric_stat
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if min_value is not None:
            self._values["min_value"] = min_value
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for CloudWatch metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def dimensions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions"]]:
        '''Dimensions for Cloudwatch metrics.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#dimensions
        '''
        result = self._values.get("dimensions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions"]], result)

    @builtins.property
    def metric_collection_period(self) -> typing.Optional[jsii.Number]:
        '''Defines the Period for CloudWatch query.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#metricCollectionPeriod
        '''
        result = self._values.get("metric_collection_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_collection_start_time(self) -> typing.Optional[jsii.Number]:
        '''Defines the StartTime for CloudWatch query.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#metricCollectionStartTime
        '''
        result = self._values.get("metric_collection_start_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_name(self) -> typing.Optional[builtins.str]:
        '''Metric name to query for Cloudwatch trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#metricName
        '''
        result = self._values.get("metric_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_stat(self) -> typing.Optional[builtins.str]:
        '''Statistics metric to be used by Trigger.

        Used to define Stat for CloudWatch query. Default is Average.

        :default: Average.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#metricStat
        '''
        result = self._values.get("metric_stat")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType"], result)

    @builtins.property
    def min_value(self) -> typing.Optional[jsii.Number]:
        '''Minimum metric value used in case of empty response from CloudWatch.

        Default is 0.

        :default: 0.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#minValue
        '''
        result = self._values.get("min_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the CloudWatch trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''AWS CloudWatch namespace for metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''TargetValue for CloudWatch metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: CloudWatch Metric dimension name.
        :param value: CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__955b2681cc08f4ebf8dd7cc9b376fdd334538b8a6a135e8dedbed86d2bd03310)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''CloudWatch Metric dimension name.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "dimensions": "dimensions",
        "metric_collection_period": "metricCollectionPeriod",
        "metric_collection_start_time": "metricCollectionStartTime",
        "metric_name": "metricName",
        "metric_stat": "metricStat",
        "metric_type": "metricType",
        "min_value": "minValue",
        "name": "name",
        "namespace": "namespace",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        dimensions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions", typing.Dict[builtins.str, typing.Any]]]] = None,
        metric_collection_period: typing.Optional[jsii.Number] = None,
        metric_collection_start_time: typing.Optional[jsii.Number] = None,
        metric_name: typing.Optional[builtins.str] = None,
        metric_stat: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType"] = None,
        min_value: typing.Optional[jsii.Number] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''
        :param activation_target_value: Activation Value for CloudWatch metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param dimensions: Dimensions for Cloudwatch metrics.
        :param metric_collection_period: Defines the Period for CloudWatch query.
        :param metric_collection_start_time: Defines the StartTime for CloudWatch query.
        :param metric_name: Metric name to query for Cloudwatch trigger.
        :param metric_stat: Statistics metric to be used by Trigger. Used to define Stat for CloudWatch query. Default is Average. Default: Average.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param min_value: Minimum metric value used in case of empty response from CloudWatch. Default is 0. Default: 0.
        :param name: Name for the CloudWatch trigger.
        :param namespace: AWS CloudWatch namespace for metric.
        :param target_value: TargetValue for CloudWatch metric.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__306fe653ffa40a9c2f13abc5f023597b70fd40eae0f2d184d7722b72497cc121)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument dimensions", value=dimensions, expected_type=type_hints["dimensions"])
            check_type(argname="argument metric_collection_period", value=metric_collection_period, expected_type=type_hints["metric_collection_period"])
            check_type(argname="argument metric_collection_start_time", value=metric_collection_start_time, expected_type=type_hints["metric_collection_start_time"])
            check_type(argname="argument metric_name", value=metric_name, expected_type=type_hints["metric_name"])
            check_type(argname="argument metric_stat", value=metric_stat, expected_type=type_hints["metric_stat"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument min_value", value=min_value, expected_type=type_hints["min_value"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if dimensions is not None:
            self._values["dimensions"] = dimensions
        if metric_collection_period is not None:
            self._values["metric_collection_period"] = metric_collection_period
        if metric_collection_start_time is not None:
            self._values["metric_collection_start_time"] = metric_collection_start_time
        if metric_name is not None:
            self._values["metric_name"] = metric_name
        if metric_stat is not None:
            self._values["metric_stat"] = metric_stat
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if min_value is not None:
            self._values["min_value"] = min_value
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for CloudWatch metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def dimensions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions"]]:
        '''Dimensions for Cloudwatch metrics.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#dimensions
        '''
        result = self._values.get("dimensions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions"]], result)

    @builtins.property
    def metric_collection_period(self) -> typing.Optional[jsii.Number]:
        '''Defines the Period for CloudWatch query.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#metricCollectionPeriod
        '''
        result = self._values.get("metric_collection_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_collection_start_time(self) -> typing.Optional[jsii.Number]:
        '''Defines the StartTime for CloudWatch query.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#metricCollectionStartTime
        '''
        result = self._values.get("metric_collection_start_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_name(self) -> typing.Optional[builtins.str]:
        '''Metric name to query for Cloudwatch trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#metricName
        '''
        result = self._values.get("metric_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_stat(self) -> typing.Optional[builtins.str]:
        '''Statistics metric to be used by Trigger.

        Used to define Stat for CloudWatch query. Default is Average.

        :default: Average.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#metricStat
        '''
        result = self._values.get("metric_stat")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType"], result)

    @builtins.property
    def min_value(self) -> typing.Optional[jsii.Number]:
        '''Minimum metric value used in case of empty response from CloudWatch.

        Default is 0.

        :default: 0.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#minValue
        '''
        result = self._values.get("min_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the CloudWatch trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''AWS CloudWatch namespace for metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''TargetValue for CloudWatch metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: CloudWatch Metric dimension name.
        :param value: CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__56a81ce11c05ad432cb5a3056ef7ed262a3c18eb69d20d19a61506820f088e8c)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''CloudWatch Metric dimension name.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType"
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType"
)
class InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType(enum.Enum):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "custom_headers": "customHeaders",
        "metric_type": "metricType",
        "name": "name",
        "namespace": "namespace",
        "query": "query",
        "server_address": "serverAddress",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        custom_headers: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType"] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        query: typing.Optional[builtins.str] = None,
        server_address: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Prometheus metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for Prometheus metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param custom_headers: Custom headers to include while querying the prometheus endpoint.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param name: Name for the Prometheus trigger.
        :param namespace: Namespace for namespaced queries.
        :param query: PromQLQuery for the metric.
        :param server_address: Server address for AMP workspace.
        :param target_value: Target metric value for scaling.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ed9409eaa9f81241846db360ec70d8e6c55985539d2da037c929f0d45e63f848)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument custom_headers", value=custom_headers, expected_type=type_hints["custom_headers"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument query", value=query, expected_type=type_hints["query"])
            check_type(argname="argument server_address", value=server_address, expected_type=type_hints["server_address"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if custom_headers is not None:
            self._values["custom_headers"] = custom_headers
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if query is not None:
            self._values["query"] = query
        if server_address is not None:
            self._values["server_address"] = server_address
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for Prometheus metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def custom_headers(self) -> typing.Optional[builtins.str]:
        '''Custom headers to include while querying the prometheus endpoint.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#customHeaders
        '''
        result = self._values.get("custom_headers")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType"], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the Prometheus trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''Namespace for namespaced queries.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def query(self) -> typing.Optional[builtins.str]:
        '''PromQLQuery for the metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#query
        '''
        result = self._values.get("query")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def server_address(self) -> typing.Optional[builtins.str]:
        '''Server address for AMP workspace.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#serverAddress
        '''
        result = self._values.get("server_address")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''Target metric value for scaling.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "custom_headers": "customHeaders",
        "metric_type": "metricType",
        "name": "name",
        "namespace": "namespace",
        "query": "query",
        "server_address": "serverAddress",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        custom_headers: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType"] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        query: typing.Optional[builtins.str] = None,
        server_address: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''
        :param activation_target_value: Activation Value for Prometheus metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param custom_headers: Custom headers to include while querying the prometheus endpoint.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param name: Name for the Prometheus trigger.
        :param namespace: Namespace for namespaced queries.
        :param query: PromQLQuery for the metric.
        :param server_address: Server address for AMP workspace.
        :param target_value: Target metric value for scaling.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__4f7911a39653653054b378bf86daf676c4be6927ac6394898ca884887576bbf7)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument custom_headers", value=custom_headers, expected_type=type_hints["custom_headers"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument query", value=query, expected_type=type_hints["query"])
            check_type(argname="argument server_address", value=server_address, expected_type=type_hints["server_address"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if custom_headers is not None:
            self._values["custom_headers"] = custom_headers
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if query is not None:
            self._values["query"] = query
        if server_address is not None:
            self._values["server_address"] = server_address
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for Prometheus metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def custom_headers(self) -> typing.Optional[builtins.str]:
        '''Custom headers to include while querying the prometheus endpoint.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#customHeaders
        '''
        result = self._values.get("custom_headers")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType"], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the Prometheus trigger.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''Namespace for namespaced queries.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def query(self) -> typing.Optional[builtins.str]:
        '''PromQLQuery for the metric.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#query
        '''
        result = self._values.get("query")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def server_address(self) -> typing.Optional[builtins.str]:
        '''Server address for AMP workspace.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#serverAddress
        '''
        result = self._values.get("server_address")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''Target metric value for scaling.

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType"
)
class InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType"
)
class InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType(enum.Enum):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpec",
    jsii_struct_bases=[],
    name_mapping={
        "auto_scaling_spec": "autoScalingSpec",
        "enabled": "enabled",
        "routing_strategy": "routingStrategy",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpec:
    def __init__(
        self,
        *,
        auto_scaling_spec: typing.Optional[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec", typing.Dict[builtins.str, typing.Any]]] = None,
        enabled: typing.Optional[builtins.bool] = None,
        routing_strategy: typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy"] = None,
    ) -> None:
        '''Configuration for intelligent routing This feature is currently not supported for existing deployments.

        Adding this configuration to an existing deployment will be rejected.

        :param auto_scaling_spec: 
        :param enabled: Once set, the enabled field cannot be modified.
        :param routing_strategy: 

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpec
        '''
        if isinstance(auto_scaling_spec, dict):
            auto_scaling_spec = InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec(**auto_scaling_spec)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__12739a27bf6831df001a53533b2884bad0a7a779fc8f84393bb822f7e61a923d)
            check_type(argname="argument auto_scaling_spec", value=auto_scaling_spec, expected_type=type_hints["auto_scaling_spec"])
            check_type(argname="argument enabled", value=enabled, expected_type=type_hints["enabled"])
            check_type(argname="argument routing_strategy", value=routing_strategy, expected_type=type_hints["routing_strategy"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if auto_scaling_spec is not None:
            self._values["auto_scaling_spec"] = auto_scaling_spec
        if enabled is not None:
            self._values["enabled"] = enabled
        if routing_strategy is not None:
            self._values["routing_strategy"] = routing_strategy

    @builtins.property
    def auto_scaling_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec"]:
        '''
        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpec#autoScalingSpec
        '''
        result = self._values.get("auto_scaling_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec"], result)

    @builtins.property
    def enabled(self) -> typing.Optional[builtins.bool]:
        '''Once set, the enabled field cannot be modified.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpec#enabled
        '''
        result = self._values.get("enabled")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def routing_strategy(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy"]:
        '''
        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpec#routingStrategy
        '''
        result = self._values.get("routing_strategy")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec",
    jsii_struct_bases=[],
    name_mapping={
        "cloud_watch_trigger": "cloudWatchTrigger",
        "cloud_watch_trigger_list": "cloudWatchTriggerList",
        "cooldown_period": "cooldownPeriod",
        "initial_cooldown_period": "initialCooldownPeriod",
        "max_replica_count": "maxReplicaCount",
        "min_replica_count": "minReplicaCount",
        "polling_interval": "pollingInterval",
        "prometheus_trigger": "prometheusTrigger",
        "prometheus_trigger_list": "prometheusTriggerList",
        "scale_down_stabilization_time": "scaleDownStabilizationTime",
        "scale_up_stabilization_time": "scaleUpStabilizationTime",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec:
    def __init__(
        self,
        *,
        cloud_watch_trigger: typing.Optional[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        cloud_watch_trigger_list: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList", typing.Dict[builtins.str, typing.Any]]]] = None,
        cooldown_period: typing.Optional[jsii.Number] = None,
        initial_cooldown_period: typing.Optional[jsii.Number] = None,
        max_replica_count: typing.Optional[jsii.Number] = None,
        min_replica_count: typing.Optional[jsii.Number] = None,
        polling_interval: typing.Optional[jsii.Number] = None,
        prometheus_trigger: typing.Optional[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        prometheus_trigger_list: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList", typing.Dict[builtins.str, typing.Any]]]] = None,
        scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
        scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''
        :param cloud_watch_trigger: CloudWatch metric trigger to use for autoscaling.
        :param cloud_watch_trigger_list: Multiple CloudWatch metric triggers to use for autoscaling. Takes priority over CloudWatchTrigger if both are provided.
        :param cooldown_period: The period to wait after the last trigger reported active before scaling the resource back to 0. Default 300 seconds.
        :param initial_cooldown_period: The delay before the cooldownPeriod starts after the initial creation of the ScaledObject. Default 300 seconds.
        :param max_replica_count: The maximum number of model pods to scale to. Default 5.
        :param min_replica_count: The minimum number of model pods to scale down to. Default 1.
        :param polling_interval: This is the interval to check each trigger on. Default 30 seconds.
        :param prometheus_trigger: Prometheus metric trigger to use for autoscaling.
        :param prometheus_trigger_list: Multiple Prometheus metric triggers to use for autoscaling. Takes priority over PrometheusTrigger if both are provided.
        :param scale_down_stabilization_time: The time window to stabilize for HPA before scaling down. Default 300 seconds.
        :param scale_up_stabilization_time: The time window to stabilize for HPA before scaling up. Default 0 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec
        '''
        if isinstance(cloud_watch_trigger, dict):
            cloud_watch_trigger = InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger(**cloud_watch_trigger)
        if isinstance(prometheus_trigger, dict):
            prometheus_trigger = InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger(**prometheus_trigger)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__2f1718596ea08b526776c480d75fd17f5e158e857e979f3de79042b4aa87daf7)
            check_type(argname="argument cloud_watch_trigger", value=cloud_watch_trigger, expected_type=type_hints["cloud_watch_trigger"])
            check_type(argname="argument cloud_watch_trigger_list", value=cloud_watch_trigger_list, expected_type=type_hints["cloud_watch_trigger_list"])
            check_type(argname="argument cooldown_period", value=cooldown_period, expected_type=type_hints["cooldown_period"])
            check_type(argname="argument initial_cooldown_period", value=initial_cooldown_period, expected_type=type_hints["initial_cooldown_period"])
            check_type(argname="argument max_replica_count", value=max_replica_count, expected_type=type_hints["max_replica_count"])
            check_type(argname="argument min_replica_count", value=min_replica_count, expected_type=type_hints["min_replica_count"])
            check_type(argname="argument polling_interval", value=polling_interval, expected_type=type_hints["polling_interval"])
            check_type(argname="argument prometheus_trigger", value=prometheus_trigger, expected_type=type_hints["prometheus_trigger"])
            check_type(argname="argument prometheus_trigger_list", value=prometheus_trigger_list, expected_type=type_hints["prometheus_trigger_list"])
            check_type(argname="argument scale_down_stabilization_time", value=scale_down_stabilization_time, expected_type=type_hints["scale_down_stabilization_time"])
            check_type(argname="argument scale_up_stabilization_time", value=scale_up_stabilization_time, expected_type=type_hints["scale_up_stabilization_time"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if cloud_watch_trigger is not None:
            self._values["cloud_watch_trigger"] = cloud_watch_trigger
        if cloud_watch_trigger_list is not None:
            self._values["cloud_watch_trigger_list"] = cloud_watch_trigger_list
        if cooldown_period is not None:
            self._values["cooldown_period"] = cooldown_period
        if initial_cooldown_period is not None:
            self._values["initial_cooldown_period"] = initial_cooldown_period
        if max_replica_count is not None:
            self._values["max_replica_count"] = max_replica_count
        if min_replica_count is not None:
            self._values["min_replica_count"] = min_replica_count
        if polling_interval is not None:
            self._values["polling_interval"] = polling_interval
        if prometheus_trigger is not None:
            self._values["prometheus_trigger"] = prometheus_trigger
        if prometheus_trigger_list is not None:
            self._values["prometheus_trigger_list"] = prometheus_trigger_list
        if scale_down_stabilization_time is not None:
            self._values["scale_down_stabilization_time"] = scale_down_stabilization_time
        if scale_up_stabilization_time is not None:
            self._values["scale_up_stabilization_time"] = scale_up_stabilization_time

    @builtins.property
    def cloud_watch_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger"]:
        '''CloudWatch metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#cloudWatchTrigger
        '''
        result = self._values.get("cloud_watch_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger"], result)

    @builtins.property
    def cloud_watch_trigger_list(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList"]]:
        '''Multiple CloudWatch metric triggers to use for autoscaling.

        Takes priority over CloudWatchTrigger if both are provided.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#cloudWatchTriggerList
        '''
        result = self._values.get("cloud_watch_trigger_list")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList"]], result)

    @builtins.property
    def cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The period to wait after the last trigger reported active before scaling the resource back to 0.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#cooldownPeriod
        '''
        result = self._values.get("cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def initial_cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The delay before the cooldownPeriod starts after the initial creation of the ScaledObject.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#initialCooldownPeriod
        '''
        result = self._values.get("initial_cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def max_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The maximum number of model pods to scale to.

        Default 5.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#maxReplicaCount
        '''
        result = self._values.get("max_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def min_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The minimum number of model pods to scale down to.

        Default 1.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#minReplicaCount
        '''
        result = self._values.get("min_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def polling_interval(self) -> typing.Optional[jsii.Number]:
        '''This is the interval to check each trigger on.

        Default 30 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#pollingInterval
        '''
        result = self._values.get("polling_interval")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def prometheus_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger"]:
        '''Prometheus metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#prometheusTrigger
        '''
        result = self._values.get("prometheus_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger"], result)

    @builtins.property
    def prometheus_trigger_list(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList"]]:
        '''Multiple Prometheus metric triggers to use for autoscaling.

        Takes priority over PrometheusTrigger if both are provided.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#prometheusTriggerList
        '''
        result = self._values.get("prometheus_trigger_list")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList"]], result)

    @builtins.property
    def scale_down_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling down.

        Default 300 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#scaleDownStabilizationTime
        '''
        result = self._values.get("scale_down_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def scale_up_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling up.

        Default 0 seconds.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec#scaleUpStabilizationTime
        '''
        result = self._values.get("scale_up_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "dimensions": "dimensions",
        "metric_collection_period": "metricCollectionPeriod",
        "metric_collection_start_time": "metricCollectionStartTime",
        "metric_name": "metricName",
        "metric_stat": "metricStat",
        "metric_type": "metricType",
        "min_value": "minValue",
        "name": "name",
        "namespace": "namespace",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        dimensions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions", typing.Dict[builtins.str, typing.Any]]]] = None,
        metric_collection_period: typing.Optional[jsii.Number] = None,
        metric_collection_start_time: typing.Optional[jsii.Number] = None,
        metric_name: typing.Optional[builtins.str] = None,
        metric_stat: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType"] = None,
        min_value: typing.Optional[jsii.Number] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''CloudWatch metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for CloudWatch metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param dimensions: Dimensions for Cloudwatch metrics.
        :param metric_collection_period: Defines the Period for CloudWatch query.
        :param metric_collection_start_time: Defines the StartTime for CloudWatch query.
        :param metric_name: Metric name to query for Cloudwatch trigger.
        :param metric_stat: Statistics metric to be used by Trigger. Used to define Stat for CloudWatch query. Default is Average. Default: Average.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param min_value: Minimum metric value used in case of empty response from CloudWatch. Default is 0. Default: 0.
        :param name: Name for the CloudWatch trigger.
        :param namespace: AWS CloudWatch namespace for metric.
        :param target_value: TargetValue for CloudWatch metric.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ba7bd88ede39a86e587edc719f352e037d6e18201a3ff1c6550f1c4759e0983d)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument dimensions", value=dimensions, expected_type=type_hints["dimensions"])
            check_type(argname="argument metric_collection_period", value=metric_collection_period, expected_type=type_hints["metric_collection_period"])
            check_type(argname="argument metric_collection_start_time", value=metric_collection_start_time, expected_type=type_hints["metric_collection_start_time"])
            check_type(argname="argument metric_name", value=metric_name, expected_type=type_hints["metric_name"])
            check_type(argname="argument metric_stat", value=metric_stat, expected_type=type_hints["metric_stat"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument min_value", value=min_value, expected_type=type_hints["min_value"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if dimensions is not None:
            self._values["dimensions"] = dimensions
        if metric_collection_period is not None:
            self._values["metric_collection_period"] = metric_collection_period
        if metric_collection_start_time is not None:
            self._values["metric_collection_start_time"] = metric_collection_start_time
        if metric_name is not None:
            self._values["metric_name"] = metric_name
        if metric_stat is not None:
            self._values["metric_stat"] = metric_stat
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if min_value is not None:
            self._values["min_value"] = min_value
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for CloudWatch metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def dimensions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions"]]:
        '''Dimensions for Cloudwatch metrics.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#dimensions
        '''
        result = self._values.get("dimensions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions"]], result)

    @builtins.property
    def metric_collection_period(self) -> typing.Optional[jsii.Number]:
        '''Defines the Period for CloudWatch query.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#metricCollectionPeriod
        '''
        result = self._values.get("metric_collection_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_collection_start_time(self) -> typing.Optional[jsii.Number]:
        '''Defines the StartTime for CloudWatch query.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#metricCollectionStartTime
        '''
        result = self._values.get("metric_collection_start_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_name(self) -> typing.Optional[builtins.str]:
        '''Metric name to query for Cloudwatch trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#metricName
        '''
        result = self._values.get("metric_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_stat(self) -> typing.Optional[builtins.str]:
        '''Statistics metric to be used by Trigger.

        Used to define Stat for CloudWatch query. Default is Average.

        :default: Average.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#metricStat
        '''
        result = self._values.get("metric_stat")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType"], result)

    @builtins.property
    def min_value(self) -> typing.Optional[jsii.Number]:
        '''Minimum metric value used in case of empty response from CloudWatch.

        Default is 0.

        :default: 0.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#minValue
        '''
        result = self._values.get("min_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the CloudWatch trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''AWS CloudWatch namespace for metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''TargetValue for CloudWatch metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: CloudWatch Metric dimension name.
        :param value: CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ab9c87f82d37ceca1319330146a271a95d5673a1a2fad294e67fab6ad37fddc9)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''CloudWatch Metric dimension name.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "dimensions": "dimensions",
        "metric_collection_period": "metricCollectionPeriod",
        "metric_collection_start_time": "metricCollectionStartTime",
        "metric_name": "metricName",
        "metric_stat": "metricStat",
        "metric_type": "metricType",
        "min_value": "minValue",
        "name": "name",
        "namespace": "namespace",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        dimensions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions", typing.Dict[builtins.str, typing.Any]]]] = None,
        metric_collection_period: typing.Optional[jsii.Number] = None,
        metric_collection_start_time: typing.Optional[jsii.Number] = None,
        metric_name: typing.Optional[builtins.str] = None,
        metric_stat: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType"] = None,
        min_value: typing.Optional[jsii.Number] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''
        :param activation_target_value: Activation Value for CloudWatch metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param dimensions: Dimensions for Cloudwatch metrics.
        :param metric_collection_period: Defines the Period for CloudWatch query.
        :param metric_collection_start_time: Defines the StartTime for CloudWatch query.
        :param metric_name: Metric name to query for Cloudwatch trigger.
        :param metric_stat: Statistics metric to be used by Trigger. Used to define Stat for CloudWatch query. Default is Average. Default: Average.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param min_value: Minimum metric value used in case of empty response from CloudWatch. Default is 0. Default: 0.
        :param name: Name for the CloudWatch trigger.
        :param namespace: AWS CloudWatch namespace for metric.
        :param target_value: TargetValue for CloudWatch metric.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__4458a6e38d259544b1a445f21c1426bfc70a46edee95ba3b843179296448e4b4)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument dimensions", value=dimensions, expected_type=type_hints["dimensions"])
            check_type(argname="argument metric_collection_period", value=metric_collection_period, expected_type=type_hints["metric_collection_period"])
            check_type(argname="argument metric_collection_start_time", value=metric_collection_start_time, expected_type=type_hints["metric_collection_start_time"])
            check_type(argname="argument metric_name", value=metric_name, expected_type=type_hints["metric_name"])
            check_type(argname="argument metric_stat", value=metric_stat, expected_type=type_hints["metric_stat"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument min_value", value=min_value, expected_type=type_hints["min_value"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if dimensions is not None:
            self._values["dimensions"] = dimensions
        if metric_collection_period is not None:
            self._values["metric_collection_period"] = metric_collection_period
        if metric_collection_start_time is not None:
            self._values["metric_collection_start_time"] = metric_collection_start_time
        if metric_name is not None:
            self._values["metric_name"] = metric_name
        if metric_stat is not None:
            self._values["metric_stat"] = metric_stat
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if min_value is not None:
            self._values["min_value"] = min_value
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for CloudWatch metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def dimensions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions"]]:
        '''Dimensions for Cloudwatch metrics.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#dimensions
        '''
        result = self._values.get("dimensions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions"]], result)

    @builtins.property
    def metric_collection_period(self) -> typing.Optional[jsii.Number]:
        '''Defines the Period for CloudWatch query.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#metricCollectionPeriod
        '''
        result = self._values.get("metric_collection_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_collection_start_time(self) -> typing.Optional[jsii.Number]:
        '''Defines the StartTime for CloudWatch query.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#metricCollectionStartTime
        '''
        result = self._values.get("metric_collection_start_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_name(self) -> typing.Optional[builtins.str]:
        '''Metric name to query for Cloudwatch trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#metricName
        '''
        result = self._values.get("metric_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_stat(self) -> typing.Optional[builtins.str]:
        '''Statistics metric to be used by Trigger.

        Used to define Stat for CloudWatch query. Default is Average.

        :default: Average.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#metricStat
        '''
        result = self._values.get("metric_stat")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType"], result)

    @builtins.property
    def min_value(self) -> typing.Optional[jsii.Number]:
        '''Minimum metric value used in case of empty response from CloudWatch.

        Default is 0.

        :default: 0.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#minValue
        '''
        result = self._values.get("min_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the CloudWatch trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''AWS CloudWatch namespace for metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''TargetValue for CloudWatch metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: CloudWatch Metric dimension name.
        :param value: CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ec306a9bab10340cc74f7473e00c3d81d961514ad27653646d30664e5036994f)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''CloudWatch Metric dimension name.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType"
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType"
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "custom_headers": "customHeaders",
        "metric_type": "metricType",
        "name": "name",
        "namespace": "namespace",
        "query": "query",
        "server_address": "serverAddress",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        custom_headers: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType"] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        query: typing.Optional[builtins.str] = None,
        server_address: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Prometheus metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for Prometheus metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param custom_headers: Custom headers to include while querying the prometheus endpoint.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param name: Name for the Prometheus trigger.
        :param namespace: Namespace for namespaced queries.
        :param query: PromQLQuery for the metric.
        :param server_address: Server address for AMP workspace.
        :param target_value: Target metric value for scaling.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__90768707f8b5efc2923b8d1ce1c094f4a1e310740fff03a42d28881a228c29de)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument custom_headers", value=custom_headers, expected_type=type_hints["custom_headers"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument query", value=query, expected_type=type_hints["query"])
            check_type(argname="argument server_address", value=server_address, expected_type=type_hints["server_address"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if custom_headers is not None:
            self._values["custom_headers"] = custom_headers
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if query is not None:
            self._values["query"] = query
        if server_address is not None:
            self._values["server_address"] = server_address
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for Prometheus metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def custom_headers(self) -> typing.Optional[builtins.str]:
        '''Custom headers to include while querying the prometheus endpoint.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#customHeaders
        '''
        result = self._values.get("custom_headers")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType"], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the Prometheus trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''Namespace for namespaced queries.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def query(self) -> typing.Optional[builtins.str]:
        '''PromQLQuery for the metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#query
        '''
        result = self._values.get("query")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def server_address(self) -> typing.Optional[builtins.str]:
        '''Server address for AMP workspace.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#serverAddress
        '''
        result = self._values.get("server_address")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''Target metric value for scaling.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "custom_headers": "customHeaders",
        "metric_type": "metricType",
        "name": "name",
        "namespace": "namespace",
        "query": "query",
        "server_address": "serverAddress",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        custom_headers: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType"] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        query: typing.Optional[builtins.str] = None,
        server_address: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''
        :param activation_target_value: Activation Value for Prometheus metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param custom_headers: Custom headers to include while querying the prometheus endpoint.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param name: Name for the Prometheus trigger.
        :param namespace: Namespace for namespaced queries.
        :param query: PromQLQuery for the metric.
        :param server_address: Server address for AMP workspace.
        :param target_value: Target metric value for scaling.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__0f470996e564eb12f9959e56fc0190114b905ec6e7476f3642e246f8154f5fcc)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument custom_headers", value=custom_headers, expected_type=type_hints["custom_headers"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument query", value=query, expected_type=type_hints["query"])
            check_type(argname="argument server_address", value=server_address, expected_type=type_hints["server_address"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if custom_headers is not None:
            self._values["custom_headers"] = custom_headers
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if query is not None:
            self._values["query"] = query
        if server_address is not None:
            self._values["server_address"] = server_address
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for Prometheus metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def custom_headers(self) -> typing.Optional[builtins.str]:
        '''Custom headers to include while querying the prometheus endpoint.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#customHeaders
        '''
        result = self._values.get("custom_headers")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType"], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the Prometheus trigger.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''Namespace for namespaced queries.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def query(self) -> typing.Optional[builtins.str]:
        '''PromQLQuery for the metric.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#query
        '''
        result = self._values.get("query")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def server_address(self) -> typing.Optional[builtins.str]:
        '''Server address for AMP workspace.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#serverAddress
        '''
        result = self._values.get("server_address")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''Target metric value for scaling.

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType"
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType"
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy"
)
class InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy(enum.Enum):
    '''
    :schema: InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy
    '''

    PREFIXAWARE = "PREFIXAWARE"
    '''prefixaware.'''
    KVAWARE = "KVAWARE"
    '''kvaware.'''
    SESSION = "SESSION"
    '''session.'''
    ROUNDROBIN = "ROUNDROBIN"
    '''roundrobin.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecKvCacheSpec",
    jsii_struct_bases=[],
    name_mapping={
        "cache_config_file": "cacheConfigFile",
        "enable_l1_cache": "enableL1Cache",
        "enable_l2_cache": "enableL2Cache",
        "l2_cache_spec": "l2CacheSpec",
    },
)
class InferenceEndpointConfigSpecKvCacheSpec:
    def __init__(
        self,
        *,
        cache_config_file: typing.Optional[builtins.str] = None,
        enable_l1_cache: typing.Optional[builtins.bool] = None,
        enable_l2_cache: typing.Optional[builtins.bool] = None,
        l2_cache_spec: typing.Optional[typing.Union["InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Configuration for KV Cache specification By default L1CacheOffloading will be enabled.

        :param cache_config_file: KVCache configuration file path. If specified, override other configurations provided via spec
        :param enable_l1_cache: Enable CPU offloading.
        :param enable_l2_cache: 
        :param l2_cache_spec: Configuration for providing L2 Cache offloading.

        :schema: InferenceEndpointConfigSpecKvCacheSpec
        '''
        if isinstance(l2_cache_spec, dict):
            l2_cache_spec = InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec(**l2_cache_spec)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__668b7fa7a6aeb5315228c392ebb0bdbf0c113ea3cd0033cdc4bc4fe23093786f)
            check_type(argname="argument cache_config_file", value=cache_config_file, expected_type=type_hints["cache_config_file"])
            check_type(argname="argument enable_l1_cache", value=enable_l1_cache, expected_type=type_hints["enable_l1_cache"])
            check_type(argname="argument enable_l2_cache", value=enable_l2_cache, expected_type=type_hints["enable_l2_cache"])
            check_type(argname="argument l2_cache_spec", value=l2_cache_spec, expected_type=type_hints["l2_cache_spec"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if cache_config_file is not None:
            self._values["cache_config_file"] = cache_config_file
        if enable_l1_cache is not None:
            self._values["enable_l1_cache"] = enable_l1_cache
        if enable_l2_cache is not None:
            self._values["enable_l2_cache"] = enable_l2_cache
        if l2_cache_spec is not None:
            self._values["l2_cache_spec"] = l2_cache_spec

    @builtins.property
    def cache_config_file(self) -> typing.Optional[builtins.str]:
        '''KVCache configuration file path.

        If specified, override other configurations provided via spec

        :schema: InferenceEndpointConfigSpecKvCacheSpec#cacheConfigFile
        '''
        result = self._values.get("cache_config_file")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def enable_l1_cache(self) -> typing.Optional[builtins.bool]:
        '''Enable CPU offloading.

        :schema: InferenceEndpointConfigSpecKvCacheSpec#enableL1Cache
        '''
        result = self._values.get("enable_l1_cache")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def enable_l2_cache(self) -> typing.Optional[builtins.bool]:
        '''
        :schema: InferenceEndpointConfigSpecKvCacheSpec#enableL2Cache
        '''
        result = self._values.get("enable_l2_cache")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def l2_cache_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec"]:
        '''Configuration for providing L2 Cache offloading.

        :schema: InferenceEndpointConfigSpecKvCacheSpec#l2CacheSpec
        '''
        result = self._values.get("l2_cache_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecKvCacheSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec",
    jsii_struct_bases=[],
    name_mapping={
        "l2_cache_backend": "l2CacheBackend",
        "l2_cache_local_url": "l2CacheLocalUrl",
    },
)
class InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec:
    def __init__(
        self,
        *,
        l2_cache_backend: typing.Optional[builtins.str] = None,
        l2_cache_local_url: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Configuration for providing L2 Cache offloading.

        :param l2_cache_backend: L2 cache backend type. Required when L2CacheSpec is provided.
        :param l2_cache_local_url: Provide the L2 cache URL to local storage.

        :schema: InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__615a8205e8b533b7321e38e1dbcbfa876246ea3c745592ebd0173d0b4d6571df)
            check_type(argname="argument l2_cache_backend", value=l2_cache_backend, expected_type=type_hints["l2_cache_backend"])
            check_type(argname="argument l2_cache_local_url", value=l2_cache_local_url, expected_type=type_hints["l2_cache_local_url"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if l2_cache_backend is not None:
            self._values["l2_cache_backend"] = l2_cache_backend
        if l2_cache_local_url is not None:
            self._values["l2_cache_local_url"] = l2_cache_local_url

    @builtins.property
    def l2_cache_backend(self) -> typing.Optional[builtins.str]:
        '''L2 cache backend type.

        Required when L2CacheSpec is provided.

        :schema: InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec#l2CacheBackend
        '''
        result = self._values.get("l2_cache_backend")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def l2_cache_local_url(self) -> typing.Optional[builtins.str]:
        '''Provide the L2 cache URL to local storage.

        :schema: InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec#l2CacheLocalUrl
        '''
        result = self._values.get("l2_cache_local_url")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecLoadBalancer",
    jsii_struct_bases=[],
    name_mapping={
        "health_check_path": "healthCheckPath",
        "routing_algorithm": "routingAlgorithm",
    },
)
class InferenceEndpointConfigSpecLoadBalancer:
    def __init__(
        self,
        *,
        health_check_path: typing.Optional[builtins.str] = None,
        routing_algorithm: typing.Optional["InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm"] = None,
    ) -> None:
        '''Configuration for Application Load Balancer.

        :param health_check_path: Health check path for the ALB target group. Defaults to /ping if not specified. Default: ping if not specified.
        :param routing_algorithm: Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

        :schema: InferenceEndpointConfigSpecLoadBalancer
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__73e02fcd2da41d268b7423b240be78d78e15a7e44b2173769504c70b1652c192)
            check_type(argname="argument health_check_path", value=health_check_path, expected_type=type_hints["health_check_path"])
            check_type(argname="argument routing_algorithm", value=routing_algorithm, expected_type=type_hints["routing_algorithm"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if health_check_path is not None:
            self._values["health_check_path"] = health_check_path
        if routing_algorithm is not None:
            self._values["routing_algorithm"] = routing_algorithm

    @builtins.property
    def health_check_path(self) -> typing.Optional[builtins.str]:
        '''Health check path for the ALB target group.

        Defaults to /ping if not specified.

        :default: ping if not specified.

        :schema: InferenceEndpointConfigSpecLoadBalancer#healthCheckPath
        '''
        result = self._values.get("health_check_path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def routing_algorithm(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm"]:
        '''Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

        :schema: InferenceEndpointConfigSpecLoadBalancer#routingAlgorithm
        '''
        result = self._values.get("routing_algorithm")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecLoadBalancer(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm"
)
class InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm(enum.Enum):
    '''Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

    :schema: InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm
    '''

    LEAST_UNDERSCORE_OUTSTANDING_UNDERSCORE_REQUESTS = "LEAST_UNDERSCORE_OUTSTANDING_UNDERSCORE_REQUESTS"
    '''least_outstanding_requests.'''
    ROUND_UNDERSCORE_ROBIN = "ROUND_UNDERSCORE_ROBIN"
    '''round_robin.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecMetrics",
    jsii_struct_bases=[],
    name_mapping={
        "enabled": "enabled",
        "metrics_scrape_interval_seconds": "metricsScrapeIntervalSeconds",
        "model_metrics": "modelMetrics",
    },
)
class InferenceEndpointConfigSpecMetrics:
    def __init__(
        self,
        *,
        enabled: typing.Optional[builtins.bool] = None,
        metrics_scrape_interval_seconds: typing.Optional[jsii.Number] = None,
        model_metrics: typing.Optional[typing.Union["InferenceEndpointConfigSpecMetricsModelMetrics", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Configuration for metrics collection and exposure.

        :param enabled: Enable metrics collection for this model deployment.
        :param metrics_scrape_interval_seconds: Scrape interval in seconds for metrics collection from sidecar and model container.
        :param model_metrics: Configuration for model container metrics scraping.

        :schema: InferenceEndpointConfigSpecMetrics
        '''
        if isinstance(model_metrics, dict):
            model_metrics = InferenceEndpointConfigSpecMetricsModelMetrics(**model_metrics)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__21e13cff0488dcb6ce5ea9dfb7ed3bd38ff4e62ab12b78b826fd825e92e89153)
            check_type(argname="argument enabled", value=enabled, expected_type=type_hints["enabled"])
            check_type(argname="argument metrics_scrape_interval_seconds", value=metrics_scrape_interval_seconds, expected_type=type_hints["metrics_scrape_interval_seconds"])
            check_type(argname="argument model_metrics", value=model_metrics, expected_type=type_hints["model_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if enabled is not None:
            self._values["enabled"] = enabled
        if metrics_scrape_interval_seconds is not None:
            self._values["metrics_scrape_interval_seconds"] = metrics_scrape_interval_seconds
        if model_metrics is not None:
            self._values["model_metrics"] = model_metrics

    @builtins.property
    def enabled(self) -> typing.Optional[builtins.bool]:
        '''Enable metrics collection for this model deployment.

        :schema: InferenceEndpointConfigSpecMetrics#enabled
        '''
        result = self._values.get("enabled")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def metrics_scrape_interval_seconds(self) -> typing.Optional[jsii.Number]:
        '''Scrape interval in seconds for metrics collection from sidecar and model container.

        :schema: InferenceEndpointConfigSpecMetrics#metricsScrapeIntervalSeconds
        '''
        result = self._values.get("metrics_scrape_interval_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def model_metrics(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecMetricsModelMetrics"]:
        '''Configuration for model container metrics scraping.

        :schema: InferenceEndpointConfigSpecMetrics#modelMetrics
        '''
        result = self._values.get("model_metrics")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecMetricsModelMetrics"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecMetrics(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecMetricsModelMetrics",
    jsii_struct_bases=[],
    name_mapping={"path": "path", "port": "port"},
)
class InferenceEndpointConfigSpecMetricsModelMetrics:
    def __init__(
        self,
        *,
        path: typing.Optional[builtins.str] = None,
        port: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''Configuration for model container metrics scraping.

        :param path: Path where the model exposes metrics.
        :param port: Port where the model exposes metrics. If not specified, a default port will be used.

        :schema: InferenceEndpointConfigSpecMetricsModelMetrics
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__553b619834af2417868be8190356fae283d31165e23cc70e098a560c8499bdc3)
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if path is not None:
            self._values["path"] = path
        if port is not None:
            self._values["port"] = port

    @builtins.property
    def path(self) -> typing.Optional[builtins.str]:
        '''Path where the model exposes metrics.

        :schema: InferenceEndpointConfigSpecMetricsModelMetrics#path
        '''
        result = self._values.get("path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def port(self) -> typing.Optional[jsii.Number]:
        '''Port where the model exposes metrics.

        If not specified, a default port will be used.

        :schema: InferenceEndpointConfigSpecMetricsModelMetrics#port
        '''
        result = self._values.get("port")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecMetricsModelMetrics(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecModelSourceConfig",
    jsii_struct_bases=[],
    name_mapping={
        "model_source_type": "modelSourceType",
        "fsx_storage": "fsxStorage",
        "model_location": "modelLocation",
        "prefetch_enabled": "prefetchEnabled",
        "s3_storage": "s3Storage",
    },
)
class InferenceEndpointConfigSpecModelSourceConfig:
    def __init__(
        self,
        *,
        model_source_type: "InferenceEndpointConfigSpecModelSourceConfigModelSourceType",
        fsx_storage: typing.Optional[typing.Union["InferenceEndpointConfigSpecModelSourceConfigFsxStorage", typing.Dict[builtins.str, typing.Any]]] = None,
        model_location: typing.Optional[builtins.str] = None,
        prefetch_enabled: typing.Optional[builtins.bool] = None,
        s3_storage: typing.Optional[typing.Union["InferenceEndpointConfigSpecModelSourceConfigS3Storage", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''
        :param model_source_type: 
        :param fsx_storage: 
        :param model_location: Specific location where the model data exists.
        :param prefetch_enabled: In case the model seems to fit within the instance's memory (VRAM), this option can be used to pre-fetch the model to RAM and then the inference server will load to the GPU/CPU device thereafter.
        :param s3_storage: 

        :schema: InferenceEndpointConfigSpecModelSourceConfig
        '''
        if isinstance(fsx_storage, dict):
            fsx_storage = InferenceEndpointConfigSpecModelSourceConfigFsxStorage(**fsx_storage)
        if isinstance(s3_storage, dict):
            s3_storage = InferenceEndpointConfigSpecModelSourceConfigS3Storage(**s3_storage)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__857c0dacdd6675be5f5ba9b3d55bcc1f77dee90097bcb956d5541ee449eb6a5b)
            check_type(argname="argument model_source_type", value=model_source_type, expected_type=type_hints["model_source_type"])
            check_type(argname="argument fsx_storage", value=fsx_storage, expected_type=type_hints["fsx_storage"])
            check_type(argname="argument model_location", value=model_location, expected_type=type_hints["model_location"])
            check_type(argname="argument prefetch_enabled", value=prefetch_enabled, expected_type=type_hints["prefetch_enabled"])
            check_type(argname="argument s3_storage", value=s3_storage, expected_type=type_hints["s3_storage"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "model_source_type": model_source_type,
        }
        if fsx_storage is not None:
            self._values["fsx_storage"] = fsx_storage
        if model_location is not None:
            self._values["model_location"] = model_location
        if prefetch_enabled is not None:
            self._values["prefetch_enabled"] = prefetch_enabled
        if s3_storage is not None:
            self._values["s3_storage"] = s3_storage

    @builtins.property
    def model_source_type(
        self,
    ) -> "InferenceEndpointConfigSpecModelSourceConfigModelSourceType":
        '''
        :schema: InferenceEndpointConfigSpecModelSourceConfig#modelSourceType
        '''
        result = self._values.get("model_source_type")
        assert result is not None, "Required property 'model_source_type' is missing"
        return typing.cast("InferenceEndpointConfigSpecModelSourceConfigModelSourceType", result)

    @builtins.property
    def fsx_storage(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecModelSourceConfigFsxStorage"]:
        '''
        :schema: InferenceEndpointConfigSpecModelSourceConfig#fsxStorage
        '''
        result = self._values.get("fsx_storage")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecModelSourceConfigFsxStorage"], result)

    @builtins.property
    def model_location(self) -> typing.Optional[builtins.str]:
        '''Specific location where the model data exists.

        :schema: InferenceEndpointConfigSpecModelSourceConfig#modelLocation
        '''
        result = self._values.get("model_location")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def prefetch_enabled(self) -> typing.Optional[builtins.bool]:
        '''In case the model seems to fit within the instance's memory (VRAM), this option can be used to pre-fetch the model to RAM and then the inference server will load to the GPU/CPU device thereafter.

        :schema: InferenceEndpointConfigSpecModelSourceConfig#prefetchEnabled
        '''
        result = self._values.get("prefetch_enabled")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def s3_storage(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecModelSourceConfigS3Storage"]:
        '''
        :schema: InferenceEndpointConfigSpecModelSourceConfig#s3Storage
        '''
        result = self._values.get("s3_storage")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecModelSourceConfigS3Storage"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecModelSourceConfig(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecModelSourceConfigFsxStorage",
    jsii_struct_bases=[],
    name_mapping={
        "file_system_id": "fileSystemId",
        "dns_name": "dnsName",
        "mount_name": "mountName",
    },
)
class InferenceEndpointConfigSpecModelSourceConfigFsxStorage:
    def __init__(
        self,
        *,
        file_system_id: builtins.str,
        dns_name: typing.Optional[builtins.str] = None,
        mount_name: typing.Optional[builtins.str] = None,
    ) -> None:
        '''
        :param file_system_id: FSX File System ID.
        :param dns_name: FSX File System DNS Name.
        :param mount_name: FSX File System Mount Name.

        :schema: InferenceEndpointConfigSpecModelSourceConfigFsxStorage
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__09f1d072609dc5db068ca656175df9f2c621eb7288205b85484268dc4528bd4d)
            check_type(argname="argument file_system_id", value=file_system_id, expected_type=type_hints["file_system_id"])
            check_type(argname="argument dns_name", value=dns_name, expected_type=type_hints["dns_name"])
            check_type(argname="argument mount_name", value=mount_name, expected_type=type_hints["mount_name"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "file_system_id": file_system_id,
        }
        if dns_name is not None:
            self._values["dns_name"] = dns_name
        if mount_name is not None:
            self._values["mount_name"] = mount_name

    @builtins.property
    def file_system_id(self) -> builtins.str:
        '''FSX File System ID.

        :schema: InferenceEndpointConfigSpecModelSourceConfigFsxStorage#fileSystemId
        '''
        result = self._values.get("file_system_id")
        assert result is not None, "Required property 'file_system_id' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def dns_name(self) -> typing.Optional[builtins.str]:
        '''FSX File System DNS Name.

        :schema: InferenceEndpointConfigSpecModelSourceConfigFsxStorage#dnsName
        '''
        result = self._values.get("dns_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def mount_name(self) -> typing.Optional[builtins.str]:
        '''FSX File System Mount Name.

        :schema: InferenceEndpointConfigSpecModelSourceConfigFsxStorage#mountName
        '''
        result = self._values.get("mount_name")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecModelSourceConfigFsxStorage(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecModelSourceConfigModelSourceType"
)
class InferenceEndpointConfigSpecModelSourceConfigModelSourceType(enum.Enum):
    '''
    :schema: InferenceEndpointConfigSpecModelSourceConfigModelSourceType
    '''

    FSX = "FSX"
    '''fsx.'''
    S3 = "S3"
    '''s3.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecModelSourceConfigS3Storage",
    jsii_struct_bases=[],
    name_mapping={"bucket_name": "bucketName", "region": "region"},
)
class InferenceEndpointConfigSpecModelSourceConfigS3Storage:
    def __init__(self, *, bucket_name: builtins.str, region: builtins.str) -> None:
        '''
        :param bucket_name: S3 bucket location.
        :param region: S3 bucket region.

        :schema: InferenceEndpointConfigSpecModelSourceConfigS3Storage
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__3877a71831df35bb2ff32fb18c68b5999c96939884047fb5b3eda2101bea18e4)
            check_type(argname="argument bucket_name", value=bucket_name, expected_type=type_hints["bucket_name"])
            check_type(argname="argument region", value=region, expected_type=type_hints["region"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "bucket_name": bucket_name,
            "region": region,
        }

    @builtins.property
    def bucket_name(self) -> builtins.str:
        '''S3 bucket location.

        :schema: InferenceEndpointConfigSpecModelSourceConfigS3Storage#bucketName
        '''
        result = self._values.get("bucket_name")
        assert result is not None, "Required property 'bucket_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def region(self) -> builtins.str:
        '''S3 bucket region.

        :schema: InferenceEndpointConfigSpecModelSourceConfigS3Storage#region
        '''
        result = self._values.get("region")
        assert result is not None, "Required property 'region' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecModelSourceConfigS3Storage(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinity",
    jsii_struct_bases=[],
    name_mapping={
        "preferred_during_scheduling_ignored_during_execution": "preferredDuringSchedulingIgnoredDuringExecution",
        "required_during_scheduling_ignored_during_execution": "requiredDuringSchedulingIgnoredDuringExecution",
    },
)
class InferenceEndpointConfigSpecNodeAffinity:
    def __init__(
        self,
        *,
        preferred_during_scheduling_ignored_during_execution: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution", typing.Dict[builtins.str, typing.Any]]]] = None,
        required_during_scheduling_ignored_during_execution: typing.Optional[typing.Union["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Custom node affinity configuration for advanced scheduling.

        This field is mutually exclusive with instanceType and instanceTypes fields.

        :param preferred_during_scheduling_ignored_during_execution: The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. The node that is most preferred is the one with the greatest sum of weights, i.e. for each node that meets all of the scheduling requirements (resource request, requiredDuringScheduling affinity expressions, etc.), compute a sum by iterating through the elements of this field and adding "weight" to the sum if the node matches the corresponding matchExpressions; the node(s) with the highest sum are the most preferred.
        :param required_during_scheduling_ignored_during_execution: If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node. If the affinity requirements specified by this field cease to be met at some point during pod execution (e.g. due to an update), the system may or may not try to eventually evict the pod from its node.

        :schema: InferenceEndpointConfigSpecNodeAffinity
        '''
        if isinstance(required_during_scheduling_ignored_during_execution, dict):
            required_during_scheduling_ignored_during_execution = InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution(**required_during_scheduling_ignored_during_execution)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__40b88ebdc0af070e29c110fac62025f19acfd24024dc75fb23b5f0aa0e6f6a97)
            check_type(argname="argument preferred_during_scheduling_ignored_during_execution", value=preferred_during_scheduling_ignored_during_execution, expected_type=type_hints["preferred_during_scheduling_ignored_during_execution"])
            check_type(argname="argument required_during_scheduling_ignored_during_execution", value=required_during_scheduling_ignored_during_execution, expected_type=type_hints["required_during_scheduling_ignored_during_execution"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if preferred_during_scheduling_ignored_during_execution is not None:
            self._values["preferred_during_scheduling_ignored_during_execution"] = preferred_during_scheduling_ignored_during_execution
        if required_during_scheduling_ignored_during_execution is not None:
            self._values["required_during_scheduling_ignored_during_execution"] = required_during_scheduling_ignored_during_execution

    @builtins.property
    def preferred_during_scheduling_ignored_during_execution(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution"]]:
        '''The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.

        The node that is
        most preferred is the one with the greatest sum of weights, i.e.
        for each node that meets all of the scheduling requirements (resource
        request, requiredDuringScheduling affinity expressions, etc.),
        compute a sum by iterating through the elements of this field and adding
        "weight" to the sum if the node matches the corresponding matchExpressions; the
        node(s) with the highest sum are the most preferred.

        :schema: InferenceEndpointConfigSpecNodeAffinity#preferredDuringSchedulingIgnoredDuringExecution
        '''
        result = self._values.get("preferred_during_scheduling_ignored_during_execution")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution"]], result)

    @builtins.property
    def required_during_scheduling_ignored_during_execution(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution"]:
        '''If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.

        If the affinity requirements specified by this field cease to be met
        at some point during pod execution (e.g. due to an update), the system
        may or may not try to eventually evict the pod from its node.

        :schema: InferenceEndpointConfigSpecNodeAffinity#requiredDuringSchedulingIgnoredDuringExecution
        '''
        result = self._values.get("required_during_scheduling_ignored_during_execution")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinity(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution",
    jsii_struct_bases=[],
    name_mapping={"preference": "preference", "weight": "weight"},
)
class InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution:
    def __init__(
        self,
        *,
        preference: typing.Union["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference", typing.Dict[builtins.str, typing.Any]],
        weight: jsii.Number,
    ) -> None:
        '''An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).

        :param preference: A node selector term, associated with the corresponding weight.
        :param weight: Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution
        '''
        if isinstance(preference, dict):
            preference = InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference(**preference)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__2c45a05c84e5d06afe030c27a4862e939d271c159d9f2929979ef314a1230331)
            check_type(argname="argument preference", value=preference, expected_type=type_hints["preference"])
            check_type(argname="argument weight", value=weight, expected_type=type_hints["weight"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "preference": preference,
            "weight": weight,
        }

    @builtins.property
    def preference(
        self,
    ) -> "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference":
        '''A node selector term, associated with the corresponding weight.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution#preference
        '''
        result = self._values.get("preference")
        assert result is not None, "Required property 'preference' is missing"
        return typing.cast("InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference", result)

    @builtins.property
    def weight(self) -> jsii.Number:
        '''Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution#weight
        '''
        result = self._values.get("weight")
        assert result is not None, "Required property 'weight' is missing"
        return typing.cast(jsii.Number, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference",
    jsii_struct_bases=[],
    name_mapping={
        "match_expressions": "matchExpressions",
        "match_fields": "matchFields",
    },
)
class InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference:
    def __init__(
        self,
        *,
        match_expressions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions", typing.Dict[builtins.str, typing.Any]]]] = None,
        match_fields: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields", typing.Dict[builtins.str, typing.Any]]]] = None,
    ) -> None:
        '''A node selector term, associated with the corresponding weight.

        :param match_expressions: A list of node selector requirements by node's labels.
        :param match_fields: A list of node selector requirements by node's fields.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__5027e652ed37272034a91f38de1dcb9716139f24e851aad91a88ac6ff93c5536)
            check_type(argname="argument match_expressions", value=match_expressions, expected_type=type_hints["match_expressions"])
            check_type(argname="argument match_fields", value=match_fields, expected_type=type_hints["match_fields"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if match_expressions is not None:
            self._values["match_expressions"] = match_expressions
        if match_fields is not None:
            self._values["match_fields"] = match_fields

    @builtins.property
    def match_expressions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions"]]:
        '''A list of node selector requirements by node's labels.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference#matchExpressions
        '''
        result = self._values.get("match_expressions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions"]], result)

    @builtins.property
    def match_fields(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields"]]:
        '''A list of node selector requirements by node's fields.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference#matchFields
        '''
        result = self._values.get("match_fields")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields"]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "operator": "operator", "values": "values"},
)
class InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions:
    def __init__(
        self,
        *,
        key: builtins.str,
        operator: builtins.str,
        values: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.

        :param key: The label key that the selector applies to.
        :param operator: Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
        :param values: An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__7e2a54f8cc35d6b4d50cfbbb3ff30df2496a2fe2d679b11b70205a4fe6214368)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument operator", value=operator, expected_type=type_hints["operator"])
            check_type(argname="argument values", value=values, expected_type=type_hints["values"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "operator": operator,
        }
        if values is not None:
            self._values["values"] = values

    @builtins.property
    def key(self) -> builtins.str:
        '''The label key that the selector applies to.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def operator(self) -> builtins.str:
        '''Represents a key's relationship to a set of values.

        Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions#operator
        '''
        result = self._values.get("operator")
        assert result is not None, "Required property 'operator' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def values(self) -> typing.Optional[typing.List[builtins.str]]:
        '''An array of string values.

        If the operator is In or NotIn,
        the values array must be non-empty. If the operator is Exists or DoesNotExist,
        the values array must be empty. If the operator is Gt or Lt, the values
        array must have a single element, which will be interpreted as an integer.
        This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions#values
        '''
        result = self._values.get("values")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "operator": "operator", "values": "values"},
)
class InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields:
    def __init__(
        self,
        *,
        key: builtins.str,
        operator: builtins.str,
        values: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.

        :param key: The label key that the selector applies to.
        :param operator: Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
        :param values: An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__4222c40a3cc95a4cca013ccbacc7eb1a67440275a5af030c8b77294e5bbfb637)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument operator", value=operator, expected_type=type_hints["operator"])
            check_type(argname="argument values", value=values, expected_type=type_hints["values"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "operator": operator,
        }
        if values is not None:
            self._values["values"] = values

    @builtins.property
    def key(self) -> builtins.str:
        '''The label key that the selector applies to.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def operator(self) -> builtins.str:
        '''Represents a key's relationship to a set of values.

        Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields#operator
        '''
        result = self._values.get("operator")
        assert result is not None, "Required property 'operator' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def values(self) -> typing.Optional[typing.List[builtins.str]]:
        '''An array of string values.

        If the operator is In or NotIn,
        the values array must be non-empty. If the operator is Exists or DoesNotExist,
        the values array must be empty. If the operator is Gt or Lt, the values
        array must have a single element, which will be interpreted as an integer.
        This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields#values
        '''
        result = self._values.get("values")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution",
    jsii_struct_bases=[],
    name_mapping={"node_selector_terms": "nodeSelectorTerms"},
)
class InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution:
    def __init__(
        self,
        *,
        node_selector_terms: typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms", typing.Dict[builtins.str, typing.Any]]],
    ) -> None:
        '''If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.

        If the affinity requirements specified by this field cease to be met
        at some point during pod execution (e.g. due to an update), the system
        may or may not try to eventually evict the pod from its node.

        :param node_selector_terms: Required. A list of node selector terms. The terms are ORed.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__13c162b49736b654470e49df554a447379959795a552d95bd619f832fab62577)
            check_type(argname="argument node_selector_terms", value=node_selector_terms, expected_type=type_hints["node_selector_terms"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "node_selector_terms": node_selector_terms,
        }

    @builtins.property
    def node_selector_terms(
        self,
    ) -> typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms"]:
        '''Required.

        A list of node selector terms. The terms are ORed.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution#nodeSelectorTerms
        '''
        result = self._values.get("node_selector_terms")
        assert result is not None, "Required property 'node_selector_terms' is missing"
        return typing.cast(typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms",
    jsii_struct_bases=[],
    name_mapping={
        "match_expressions": "matchExpressions",
        "match_fields": "matchFields",
    },
)
class InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms:
    def __init__(
        self,
        *,
        match_expressions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions", typing.Dict[builtins.str, typing.Any]]]] = None,
        match_fields: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields", typing.Dict[builtins.str, typing.Any]]]] = None,
    ) -> None:
        '''A null or empty node selector term matches no objects.

        The requirements of
        them are ANDed.
        The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.

        :param match_expressions: A list of node selector requirements by node's labels.
        :param match_fields: A list of node selector requirements by node's fields.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__e6f1449b579191b5087a1eadf6c62aba20188d6175aa0f7e6111a537e4c903f7)
            check_type(argname="argument match_expressions", value=match_expressions, expected_type=type_hints["match_expressions"])
            check_type(argname="argument match_fields", value=match_fields, expected_type=type_hints["match_fields"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if match_expressions is not None:
            self._values["match_expressions"] = match_expressions
        if match_fields is not None:
            self._values["match_fields"] = match_fields

    @builtins.property
    def match_expressions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions"]]:
        '''A list of node selector requirements by node's labels.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms#matchExpressions
        '''
        result = self._values.get("match_expressions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions"]], result)

    @builtins.property
    def match_fields(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields"]]:
        '''A list of node selector requirements by node's fields.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms#matchFields
        '''
        result = self._values.get("match_fields")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields"]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "operator": "operator", "values": "values"},
)
class InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions:
    def __init__(
        self,
        *,
        key: builtins.str,
        operator: builtins.str,
        values: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.

        :param key: The label key that the selector applies to.
        :param operator: Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
        :param values: An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d0bf46e62277b9b1f65fc36b55de5aa83810708846fb92104749ec57b25b1455)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument operator", value=operator, expected_type=type_hints["operator"])
            check_type(argname="argument values", value=values, expected_type=type_hints["values"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "operator": operator,
        }
        if values is not None:
            self._values["values"] = values

    @builtins.property
    def key(self) -> builtins.str:
        '''The label key that the selector applies to.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def operator(self) -> builtins.str:
        '''Represents a key's relationship to a set of values.

        Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions#operator
        '''
        result = self._values.get("operator")
        assert result is not None, "Required property 'operator' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def values(self) -> typing.Optional[typing.List[builtins.str]]:
        '''An array of string values.

        If the operator is In or NotIn,
        the values array must be non-empty. If the operator is Exists or DoesNotExist,
        the values array must be empty. If the operator is Gt or Lt, the values
        array must have a single element, which will be interpreted as an integer.
        This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions#values
        '''
        result = self._values.get("values")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "operator": "operator", "values": "values"},
)
class InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields:
    def __init__(
        self,
        *,
        key: builtins.str,
        operator: builtins.str,
        values: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.

        :param key: The label key that the selector applies to.
        :param operator: Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.
        :param values: An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ed62b67c0d6e1a33701be120e6c726c50d16a8f99b8c232766106205678a02a6)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument operator", value=operator, expected_type=type_hints["operator"])
            check_type(argname="argument values", value=values, expected_type=type_hints["values"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "operator": operator,
        }
        if values is not None:
            self._values["values"] = values

    @builtins.property
    def key(self) -> builtins.str:
        '''The label key that the selector applies to.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def operator(self) -> builtins.str:
        '''Represents a key's relationship to a set of values.

        Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields#operator
        '''
        result = self._values.get("operator")
        assert result is not None, "Required property 'operator' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def values(self) -> typing.Optional[typing.List[builtins.str]]:
        '''An array of string values.

        If the operator is In or NotIn,
        the values array must be non-empty. If the operator is Exists or DoesNotExist,
        the values array must be empty. If the operator is Gt or Lt, the values
        array must have a single element, which will be interpreted as an integer.
        This array is replaced during a strategic merge patch.

        :schema: InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields#values
        '''
        result = self._values.get("values")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecTags",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecTags:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: 
        :param value: 

        :schema: InferenceEndpointConfigSpecTags
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__fc116929cc572b2cc2f8519fb32abd81a8b2975c02b5f7a99a6e95a52ea63b13)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''
        :schema: InferenceEndpointConfigSpecTags#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''
        :schema: InferenceEndpointConfigSpecTags#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecTags(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecTlsConfig",
    jsii_struct_bases=[],
    name_mapping={"tls_certificate_output_s3_uri": "tlsCertificateOutputS3Uri"},
)
class InferenceEndpointConfigSpecTlsConfig:
    def __init__(
        self,
        *,
        tls_certificate_output_s3_uri: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Configurations for TLS.

        :param tls_certificate_output_s3_uri: 

        :schema: InferenceEndpointConfigSpecTlsConfig
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ba837b9e6d8747c8f479f8ba6f0b9f4c68de8c7a7359af024a26f8449de5cb40)
            check_type(argname="argument tls_certificate_output_s3_uri", value=tls_certificate_output_s3_uri, expected_type=type_hints["tls_certificate_output_s3_uri"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if tls_certificate_output_s3_uri is not None:
            self._values["tls_certificate_output_s3_uri"] = tls_certificate_output_s3_uri

    @builtins.property
    def tls_certificate_output_s3_uri(self) -> typing.Optional[builtins.str]:
        '''
        :schema: InferenceEndpointConfigSpecTlsConfig#tlsCertificateOutputS3Uri
        '''
        result = self._values.get("tls_certificate_output_s3_uri")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecTlsConfig(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorker",
    jsii_struct_bases=[],
    name_mapping={
        "image": "image",
        "model_invocation_port": "modelInvocationPort",
        "model_volume_mount": "modelVolumeMount",
        "resources": "resources",
        "args": "args",
        "command": "command",
        "environment_variables": "environmentVariables",
        "probes": "probes",
        "working_dir": "workingDir",
    },
)
class InferenceEndpointConfigSpecWorker:
    def __init__(
        self,
        *,
        image: builtins.str,
        model_invocation_port: typing.Union["InferenceEndpointConfigSpecWorkerModelInvocationPort", typing.Dict[builtins.str, typing.Any]],
        model_volume_mount: typing.Union["InferenceEndpointConfigSpecWorkerModelVolumeMount", typing.Dict[builtins.str, typing.Any]],
        resources: typing.Union["InferenceEndpointConfigSpecWorkerResources", typing.Dict[builtins.str, typing.Any]],
        args: typing.Optional[typing.Sequence[builtins.str]] = None,
        command: typing.Optional[typing.Sequence[builtins.str]] = None,
        environment_variables: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariables", typing.Dict[builtins.str, typing.Any]]]] = None,
        probes: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbes", typing.Dict[builtins.str, typing.Any]]] = None,
        working_dir: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Details of the worker.

        :param image: The name of the inference server image to be used.
        :param model_invocation_port: Defines the port at which the model server will listen to the invocation requests.
        :param model_volume_mount: Defines the volume where model will be loaded.
        :param resources: Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.
        :param args: Defines the Arguments to the entrypoint.
        :param command: Defines the Command which is Entrypoint array. Not executed within a shell.
        :param environment_variables: List of environment variables to set in the container. Cannot be updated.
        :param probes: Configuration for container probes (liveness, readiness, startup).
        :param working_dir: Defines the working directory of container.

        :schema: InferenceEndpointConfigSpecWorker
        '''
        if isinstance(model_invocation_port, dict):
            model_invocation_port = InferenceEndpointConfigSpecWorkerModelInvocationPort(**model_invocation_port)
        if isinstance(model_volume_mount, dict):
            model_volume_mount = InferenceEndpointConfigSpecWorkerModelVolumeMount(**model_volume_mount)
        if isinstance(resources, dict):
            resources = InferenceEndpointConfigSpecWorkerResources(**resources)
        if isinstance(probes, dict):
            probes = InferenceEndpointConfigSpecWorkerProbes(**probes)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__254932ed78004b8048189df136fef209b67e7568c75782bac30d55ef7199ac6c)
            check_type(argname="argument image", value=image, expected_type=type_hints["image"])
            check_type(argname="argument model_invocation_port", value=model_invocation_port, expected_type=type_hints["model_invocation_port"])
            check_type(argname="argument model_volume_mount", value=model_volume_mount, expected_type=type_hints["model_volume_mount"])
            check_type(argname="argument resources", value=resources, expected_type=type_hints["resources"])
            check_type(argname="argument args", value=args, expected_type=type_hints["args"])
            check_type(argname="argument command", value=command, expected_type=type_hints["command"])
            check_type(argname="argument environment_variables", value=environment_variables, expected_type=type_hints["environment_variables"])
            check_type(argname="argument probes", value=probes, expected_type=type_hints["probes"])
            check_type(argname="argument working_dir", value=working_dir, expected_type=type_hints["working_dir"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "image": image,
            "model_invocation_port": model_invocation_port,
            "model_volume_mount": model_volume_mount,
            "resources": resources,
        }
        if args is not None:
            self._values["args"] = args
        if command is not None:
            self._values["command"] = command
        if environment_variables is not None:
            self._values["environment_variables"] = environment_variables
        if probes is not None:
            self._values["probes"] = probes
        if working_dir is not None:
            self._values["working_dir"] = working_dir

    @builtins.property
    def image(self) -> builtins.str:
        '''The name of the inference server image to be used.

        :schema: InferenceEndpointConfigSpecWorker#image
        '''
        result = self._values.get("image")
        assert result is not None, "Required property 'image' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def model_invocation_port(
        self,
    ) -> "InferenceEndpointConfigSpecWorkerModelInvocationPort":
        '''Defines the port at which the model server will listen to the invocation requests.

        :schema: InferenceEndpointConfigSpecWorker#modelInvocationPort
        '''
        result = self._values.get("model_invocation_port")
        assert result is not None, "Required property 'model_invocation_port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerModelInvocationPort", result)

    @builtins.property
    def model_volume_mount(self) -> "InferenceEndpointConfigSpecWorkerModelVolumeMount":
        '''Defines the volume where model will be loaded.

        :schema: InferenceEndpointConfigSpecWorker#modelVolumeMount
        '''
        result = self._values.get("model_volume_mount")
        assert result is not None, "Required property 'model_volume_mount' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerModelVolumeMount", result)

    @builtins.property
    def resources(self) -> "InferenceEndpointConfigSpecWorkerResources":
        '''Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.

        :schema: InferenceEndpointConfigSpecWorker#resources
        '''
        result = self._values.get("resources")
        assert result is not None, "Required property 'resources' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerResources", result)

    @builtins.property
    def args(self) -> typing.Optional[typing.List[builtins.str]]:
        '''Defines the Arguments to the entrypoint.

        :schema: InferenceEndpointConfigSpecWorker#args
        '''
        result = self._values.get("args")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    @builtins.property
    def command(self) -> typing.Optional[typing.List[builtins.str]]:
        '''Defines the Command which is Entrypoint array.

        Not executed within a shell.

        :schema: InferenceEndpointConfigSpecWorker#command
        '''
        result = self._values.get("command")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    @builtins.property
    def environment_variables(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerEnvironmentVariables"]]:
        '''List of environment variables to set in the container.

        Cannot be updated.

        :schema: InferenceEndpointConfigSpecWorker#environmentVariables
        '''
        result = self._values.get("environment_variables")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerEnvironmentVariables"]], result)

    @builtins.property
    def probes(self) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbes"]:
        '''Configuration for container probes (liveness, readiness, startup).

        :schema: InferenceEndpointConfigSpecWorker#probes
        '''
        result = self._values.get("probes")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbes"], result)

    @builtins.property
    def working_dir(self) -> typing.Optional[builtins.str]:
        '''Defines the working directory of container.

        :schema: InferenceEndpointConfigSpecWorker#workingDir
        '''
        result = self._values.get("working_dir")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorker(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariables",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value", "value_from": "valueFrom"},
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariables:
    def __init__(
        self,
        *,
        name: builtins.str,
        value: typing.Optional[builtins.str] = None,
        value_from: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''EnvVar represents an environment variable present in a Container.

        :param name: Name of the environment variable. May consist of any printable ASCII characters except '='.
        :param value: Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to "". Default: .
        :param value_from: Source for the environment variable's value. Cannot be used if value is not empty.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariables
        '''
        if isinstance(value_from, dict):
            value_from = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom(**value_from)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__00ee261aec79ad9dc2f4a15829058727a4220fe79fd79850020cc6bbf93446b9)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
            check_type(argname="argument value_from", value=value_from, expected_type=type_hints["value_from"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if value is not None:
            self._values["value"] = value
        if value_from is not None:
            self._values["value_from"] = value_from

    @builtins.property
    def name(self) -> builtins.str:
        '''Name of the environment variable.

        May consist of any printable ASCII characters except '='.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariables#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> typing.Optional[builtins.str]:
        '''Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.

        If a variable cannot be resolved,
        the reference in the input string will be unchanged. Double $$ are reduced
        to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
        "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
        Escaped references will never be expanded, regardless of whether the variable
        exists or not.
        Defaults to "".

        :default: .

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariables#value
        '''
        result = self._values.get("value")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def value_from(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom"]:
        '''Source for the environment variable's value.

        Cannot be used if value is not empty.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariables#valueFrom
        '''
        result = self._values.get("value_from")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariables(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom",
    jsii_struct_bases=[],
    name_mapping={
        "config_map_key_ref": "configMapKeyRef",
        "field_ref": "fieldRef",
        "file_key_ref": "fileKeyRef",
        "resource_field_ref": "resourceFieldRef",
        "secret_key_ref": "secretKeyRef",
    },
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom:
    def __init__(
        self,
        *,
        config_map_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
        field_ref: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef", typing.Dict[builtins.str, typing.Any]]] = None,
        file_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
        resource_field_ref: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef", typing.Dict[builtins.str, typing.Any]]] = None,
        secret_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Source for the environment variable's value.

        Cannot be used if value is not empty.

        :param config_map_key_ref: Selects a key of a ConfigMap.
        :param field_ref: Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
        :param file_key_ref: FileKeyRef selects a key of the env file. Requires the EnvFiles feature gate to be enabled.
        :param resource_field_ref: Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
        :param secret_key_ref: Selects a key of a secret in the pod's namespace.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom
        '''
        if isinstance(config_map_key_ref, dict):
            config_map_key_ref = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef(**config_map_key_ref)
        if isinstance(field_ref, dict):
            field_ref = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef(**field_ref)
        if isinstance(file_key_ref, dict):
            file_key_ref = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef(**file_key_ref)
        if isinstance(resource_field_ref, dict):
            resource_field_ref = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef(**resource_field_ref)
        if isinstance(secret_key_ref, dict):
            secret_key_ref = InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef(**secret_key_ref)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6dc573571d44fc425c2de5141adcf9a4c6ee40a478fb998f9918ee196acec1ab)
            check_type(argname="argument config_map_key_ref", value=config_map_key_ref, expected_type=type_hints["config_map_key_ref"])
            check_type(argname="argument field_ref", value=field_ref, expected_type=type_hints["field_ref"])
            check_type(argname="argument file_key_ref", value=file_key_ref, expected_type=type_hints["file_key_ref"])
            check_type(argname="argument resource_field_ref", value=resource_field_ref, expected_type=type_hints["resource_field_ref"])
            check_type(argname="argument secret_key_ref", value=secret_key_ref, expected_type=type_hints["secret_key_ref"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if config_map_key_ref is not None:
            self._values["config_map_key_ref"] = config_map_key_ref
        if field_ref is not None:
            self._values["field_ref"] = field_ref
        if file_key_ref is not None:
            self._values["file_key_ref"] = file_key_ref
        if resource_field_ref is not None:
            self._values["resource_field_ref"] = resource_field_ref
        if secret_key_ref is not None:
            self._values["secret_key_ref"] = secret_key_ref

    @builtins.property
    def config_map_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef"]:
        '''Selects a key of a ConfigMap.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom#configMapKeyRef
        '''
        result = self._values.get("config_map_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef"], result)

    @builtins.property
    def field_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef"]:
        '''Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom#fieldRef
        '''
        result = self._values.get("field_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef"], result)

    @builtins.property
    def file_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef"]:
        '''FileKeyRef selects a key of the env file.

        Requires the EnvFiles feature gate to be enabled.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom#fileKeyRef
        '''
        result = self._values.get("file_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef"], result)

    @builtins.property
    def resource_field_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef"]:
        '''Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom#resourceFieldRef
        '''
        result = self._values.get("resource_field_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef"], result)

    @builtins.property
    def secret_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef"]:
        '''Selects a key of a secret in the pod's namespace.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom#secretKeyRef
        '''
        result = self._values.get("secret_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "name": "name", "optional": "optional"},
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        name: typing.Optional[builtins.str] = None,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Selects a key of a ConfigMap.

        :param key: The key to select.
        :param name: Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
        :param optional: Specify whether the ConfigMap or its key must be defined.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d360cc0468c479b7ba89c973f6c89b59c346c8d36c7627a0cc613f744c1e142c)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
        }
        if name is not None:
            self._values["name"] = name
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key to select.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name of the referent.

        This field is effectively required, but due to backwards compatibility is
        allowed to be empty. Instances of this type with an empty value here are
        almost certainly wrong.
        More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the ConfigMap or its key must be defined.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef",
    jsii_struct_bases=[],
    name_mapping={"field_path": "fieldPath", "api_version": "apiVersion"},
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef:
    def __init__(
        self,
        *,
        field_path: builtins.str,
        api_version: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.

        :param field_path: Path of the field to select in the specified API version.
        :param api_version: Version of the schema the FieldPath is written in terms of, defaults to "v1".

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__a0b538021926680a2b6697a39d3dbd5adc629a8a333742b9dd2806d022513888)
            check_type(argname="argument field_path", value=field_path, expected_type=type_hints["field_path"])
            check_type(argname="argument api_version", value=api_version, expected_type=type_hints["api_version"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "field_path": field_path,
        }
        if api_version is not None:
            self._values["api_version"] = api_version

    @builtins.property
    def field_path(self) -> builtins.str:
        '''Path of the field to select in the specified API version.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef#fieldPath
        '''
        result = self._values.get("field_path")
        assert result is not None, "Required property 'field_path' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def api_version(self) -> typing.Optional[builtins.str]:
        '''Version of the schema the FieldPath is written in terms of, defaults to "v1".

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef#apiVersion
        '''
        result = self._values.get("api_version")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef",
    jsii_struct_bases=[],
    name_mapping={
        "key": "key",
        "path": "path",
        "volume_name": "volumeName",
        "optional": "optional",
    },
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        path: builtins.str,
        volume_name: builtins.str,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''FileKeyRef selects a key of the env file.

        Requires the EnvFiles feature gate to be enabled.

        :param key: The key within the env file. An invalid key will prevent the pod from starting. The keys defined within a source may consist of any printable ASCII characters except '='. During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
        :param path: The path within the volume from which to select the file. Must be relative and may not contain the '..' path or start with '..'.
        :param volume_name: The name of the volume mount containing the env file.
        :param optional: Specify whether the file or its key must be defined. If the file or key does not exist, then the env var is not published. If optional is set to true and the specified key does not exist, the environment variable will not be set in the Pod's containers. If optional is set to false and the specified key does not exist, an error will be returned during Pod creation.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__a2bac633a1dd362d486fcaf941877cb6a5303cc5429d65c42e1f66ecaa76ffee)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument volume_name", value=volume_name, expected_type=type_hints["volume_name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "path": path,
            "volume_name": volume_name,
        }
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key within the env file.

        An invalid key will prevent the pod from starting.
        The keys defined within a source may consist of any printable ASCII characters except '='.
        During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def path(self) -> builtins.str:
        '''The path within the volume from which to select the file.

        Must be relative and may not contain the '..' path or start with '..'.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef#path
        '''
        result = self._values.get("path")
        assert result is not None, "Required property 'path' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def volume_name(self) -> builtins.str:
        '''The name of the volume mount containing the env file.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef#volumeName
        '''
        result = self._values.get("volume_name")
        assert result is not None, "Required property 'volume_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the file or its key must be defined.

        If the file or key
        does not exist, then the env var is not published.
        If optional is set to true and the specified key does not exist,
        the environment variable will not be set in the Pod's containers.

        If optional is set to false and the specified key does not exist,
        an error will be returned during Pod creation.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef",
    jsii_struct_bases=[],
    name_mapping={
        "resource": "resource",
        "container_name": "containerName",
        "divisor": "divisor",
    },
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef:
    def __init__(
        self,
        *,
        resource: builtins.str,
        container_name: typing.Optional[builtins.str] = None,
        divisor: typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"] = None,
    ) -> None:
        '''Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.

        :param resource: Required: resource to select.
        :param container_name: Container name: required for volumes, optional for env vars.
        :param divisor: Specifies the output format of the exposed resources, defaults to "1".

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__dc1ab467ba7f09da00765bf8948a739ed499735e84a660aedb2d5e2e73f9dc86)
            check_type(argname="argument resource", value=resource, expected_type=type_hints["resource"])
            check_type(argname="argument container_name", value=container_name, expected_type=type_hints["container_name"])
            check_type(argname="argument divisor", value=divisor, expected_type=type_hints["divisor"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "resource": resource,
        }
        if container_name is not None:
            self._values["container_name"] = container_name
        if divisor is not None:
            self._values["divisor"] = divisor

    @builtins.property
    def resource(self) -> builtins.str:
        '''Required: resource to select.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef#resource
        '''
        result = self._values.get("resource")
        assert result is not None, "Required property 'resource' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def container_name(self) -> typing.Optional[builtins.str]:
        '''Container name: required for volumes, optional for env vars.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef#containerName
        '''
        result = self._values.get("container_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def divisor(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"]:
        '''Specifies the output format of the exposed resources, defaults to "1".

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef#divisor
        '''
        result = self._values.get("divisor")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor",
):
    '''Specifies the output format of the exposed resources, defaults to "1".

    :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__1a4608d1508d97945ca93d4643ade1b1a3fc5524a0963ac1c1aee9c574cd9e83)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ebd04df4c160c982debcc728181bef01b3926d86f3efb85f7301b4581f27cc49)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "name": "name", "optional": "optional"},
)
class InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        name: typing.Optional[builtins.str] = None,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Selects a key of a secret in the pod's namespace.

        :param key: The key of the secret to select from. Must be a valid secret key.
        :param name: Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
        :param optional: Specify whether the Secret or its key must be defined.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__0e511d755d1a6cd04096fd45070dc2ffd25971f5d37da70e2f613db1e2edcac6)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
        }
        if name is not None:
            self._values["name"] = name
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key of the secret to select from.

        Must be a valid secret key.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name of the referent.

        This field is effectively required, but due to backwards compatibility is
        allowed to be empty. Instances of this type with an empty value here are
        almost certainly wrong.
        More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the Secret or its key must be defined.

        :schema: InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerModelInvocationPort",
    jsii_struct_bases=[],
    name_mapping={"container_port": "containerPort", "name": "name"},
)
class InferenceEndpointConfigSpecWorkerModelInvocationPort:
    def __init__(
        self,
        *,
        container_port: jsii.Number,
        name: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Defines the port at which the model server will listen to the invocation requests.

        :param container_port: Port on which the model server will be listening.
        :param name: This is name for the port within the deployed container where the model will listen. This will be referred to by the Load Balancer Service. This must be an IANA_SVC_NAME (for eg. http) and unique within the pod.

        :schema: InferenceEndpointConfigSpecWorkerModelInvocationPort
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__803de6ff64163a0146b8a190a78897e3af5dd14d7559cb95b3c833ed3ab6fd73)
            check_type(argname="argument container_port", value=container_port, expected_type=type_hints["container_port"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "container_port": container_port,
        }
        if name is not None:
            self._values["name"] = name

    @builtins.property
    def container_port(self) -> jsii.Number:
        '''Port on which the model server will be listening.

        :schema: InferenceEndpointConfigSpecWorkerModelInvocationPort#containerPort
        '''
        result = self._values.get("container_port")
        assert result is not None, "Required property 'container_port' is missing"
        return typing.cast(jsii.Number, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''This is name for the port within the deployed container where the model will listen.

        This will be referred to by the Load Balancer Service.
        This must be an IANA_SVC_NAME (for eg. http) and unique within the pod.

        :schema: InferenceEndpointConfigSpecWorkerModelInvocationPort#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerModelInvocationPort(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerModelVolumeMount",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "mount_path": "mountPath"},
)
class InferenceEndpointConfigSpecWorkerModelVolumeMount:
    def __init__(
        self,
        *,
        name: builtins.str,
        mount_path: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Defines the volume where model will be loaded.

        :param name: Name of the model volume mount.
        :param mount_path: This is the path within the container where the model data will be available for the inference server to load it to GPU,CPU or other device.

        :schema: InferenceEndpointConfigSpecWorkerModelVolumeMount
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__b0ba08282941e8a6af7671747251afdeee4b6e2c87598b9bd34eb6468df62f60)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument mount_path", value=mount_path, expected_type=type_hints["mount_path"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if mount_path is not None:
            self._values["mount_path"] = mount_path

    @builtins.property
    def name(self) -> builtins.str:
        '''Name of the model volume mount.

        :schema: InferenceEndpointConfigSpecWorkerModelVolumeMount#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def mount_path(self) -> typing.Optional[builtins.str]:
        '''This is the path within the container where the model data will be available for the inference server to load it to GPU,CPU or other device.

        :schema: InferenceEndpointConfigSpecWorkerModelVolumeMount#mountPath
        '''
        result = self._values.get("mount_path")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerModelVolumeMount(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbes",
    jsii_struct_bases=[],
    name_mapping={
        "liveness_probe": "livenessProbe",
        "readiness_probe": "readinessProbe",
        "startup_probe": "startupProbe",
    },
)
class InferenceEndpointConfigSpecWorkerProbes:
    def __init__(
        self,
        *,
        liveness_probe: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbe", typing.Dict[builtins.str, typing.Any]]] = None,
        readiness_probe: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbe", typing.Dict[builtins.str, typing.Any]]] = None,
        startup_probe: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbe", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Configuration for container probes (liveness, readiness, startup).

        :param liveness_probe: Liveness probe configuration.
        :param readiness_probe: Readiness probe configuration. If not specified, default values will be applied.
        :param startup_probe: Startup probe configuration.

        :schema: InferenceEndpointConfigSpecWorkerProbes
        '''
        if isinstance(liveness_probe, dict):
            liveness_probe = InferenceEndpointConfigSpecWorkerProbesLivenessProbe(**liveness_probe)
        if isinstance(readiness_probe, dict):
            readiness_probe = InferenceEndpointConfigSpecWorkerProbesReadinessProbe(**readiness_probe)
        if isinstance(startup_probe, dict):
            startup_probe = InferenceEndpointConfigSpecWorkerProbesStartupProbe(**startup_probe)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__e224a8d16619e476b6f8e7e300a2beb580cfa7aa811039e0300e704f245cf118)
            check_type(argname="argument liveness_probe", value=liveness_probe, expected_type=type_hints["liveness_probe"])
            check_type(argname="argument readiness_probe", value=readiness_probe, expected_type=type_hints["readiness_probe"])
            check_type(argname="argument startup_probe", value=startup_probe, expected_type=type_hints["startup_probe"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if liveness_probe is not None:
            self._values["liveness_probe"] = liveness_probe
        if readiness_probe is not None:
            self._values["readiness_probe"] = readiness_probe
        if startup_probe is not None:
            self._values["startup_probe"] = startup_probe

    @builtins.property
    def liveness_probe(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbe"]:
        '''Liveness probe configuration.

        :schema: InferenceEndpointConfigSpecWorkerProbes#livenessProbe
        '''
        result = self._values.get("liveness_probe")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbe"], result)

    @builtins.property
    def readiness_probe(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbe"]:
        '''Readiness probe configuration.

        If not specified, default values will be applied.

        :schema: InferenceEndpointConfigSpecWorkerProbes#readinessProbe
        '''
        result = self._values.get("readiness_probe")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbe"], result)

    @builtins.property
    def startup_probe(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbe"]:
        '''Startup probe configuration.

        :schema: InferenceEndpointConfigSpecWorkerProbes#startupProbe
        '''
        result = self._values.get("startup_probe")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbe"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbes(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbe",
    jsii_struct_bases=[],
    name_mapping={
        "exec": "exec",
        "failure_threshold": "failureThreshold",
        "grpc": "grpc",
        "http_get": "httpGet",
        "initial_delay_seconds": "initialDelaySeconds",
        "period_seconds": "periodSeconds",
        "success_threshold": "successThreshold",
        "tcp_socket": "tcpSocket",
        "termination_grace_period_seconds": "terminationGracePeriodSeconds",
        "timeout_seconds": "timeoutSeconds",
    },
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbe:
    def __init__(
        self,
        *,
        exec: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec", typing.Dict[builtins.str, typing.Any]]] = None,
        failure_threshold: typing.Optional[jsii.Number] = None,
        grpc: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc", typing.Dict[builtins.str, typing.Any]]] = None,
        http_get: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet", typing.Dict[builtins.str, typing.Any]]] = None,
        initial_delay_seconds: typing.Optional[jsii.Number] = None,
        period_seconds: typing.Optional[jsii.Number] = None,
        success_threshold: typing.Optional[jsii.Number] = None,
        tcp_socket: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket", typing.Dict[builtins.str, typing.Any]]] = None,
        termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
        timeout_seconds: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''Liveness probe configuration.

        :param exec: Exec specifies a command to execute in the container.
        :param failure_threshold: Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1. Default: 3. Minimum value is 1.
        :param grpc: GRPC specifies a GRPC HealthCheckRequest.
        :param http_get: HTTPGet specifies an HTTP GET request to perform.
        :param initial_delay_seconds: Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
        :param period_seconds: How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1. Default: 10 seconds. Minimum value is 1.
        :param success_threshold: Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1. Default: 1. Must be 1 for liveness and startup. Minimum value is 1.
        :param tcp_socket: TCPSocket specifies a connection to a TCP port.
        :param termination_grace_period_seconds: Optional duration in seconds the pod needs to terminate gracefully upon probe failure. The grace period is the duration in seconds after the processes running in the pod are sent a termination signal and the time when the processes are forcibly halted with a kill signal. Set this value longer than the expected cleanup time for your process. If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this value overrides the value provided by the pod spec. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate. Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.
        :param timeout_seconds: Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes Default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe
        '''
        if isinstance(exec, dict):
            exec = InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec(**exec)
        if isinstance(grpc, dict):
            grpc = InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc(**grpc)
        if isinstance(http_get, dict):
            http_get = InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet(**http_get)
        if isinstance(tcp_socket, dict):
            tcp_socket = InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket(**tcp_socket)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__9d88e404272069b866e7c49df9a7a29a23e3ffb58d65af6149837381f044f625)
            check_type(argname="argument exec", value=exec, expected_type=type_hints["exec"])
            check_type(argname="argument failure_threshold", value=failure_threshold, expected_type=type_hints["failure_threshold"])
            check_type(argname="argument grpc", value=grpc, expected_type=type_hints["grpc"])
            check_type(argname="argument http_get", value=http_get, expected_type=type_hints["http_get"])
            check_type(argname="argument initial_delay_seconds", value=initial_delay_seconds, expected_type=type_hints["initial_delay_seconds"])
            check_type(argname="argument period_seconds", value=period_seconds, expected_type=type_hints["period_seconds"])
            check_type(argname="argument success_threshold", value=success_threshold, expected_type=type_hints["success_threshold"])
            check_type(argname="argument tcp_socket", value=tcp_socket, expected_type=type_hints["tcp_socket"])
            check_type(argname="argument termination_grace_period_seconds", value=termination_grace_period_seconds, expected_type=type_hints["termination_grace_period_seconds"])
            check_type(argname="argument timeout_seconds", value=timeout_seconds, expected_type=type_hints["timeout_seconds"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if exec is not None:
            self._values["exec"] = exec
        if failure_threshold is not None:
            self._values["failure_threshold"] = failure_threshold
        if grpc is not None:
            self._values["grpc"] = grpc
        if http_get is not None:
            self._values["http_get"] = http_get
        if initial_delay_seconds is not None:
            self._values["initial_delay_seconds"] = initial_delay_seconds
        if period_seconds is not None:
            self._values["period_seconds"] = period_seconds
        if success_threshold is not None:
            self._values["success_threshold"] = success_threshold
        if tcp_socket is not None:
            self._values["tcp_socket"] = tcp_socket
        if termination_grace_period_seconds is not None:
            self._values["termination_grace_period_seconds"] = termination_grace_period_seconds
        if timeout_seconds is not None:
            self._values["timeout_seconds"] = timeout_seconds

    @builtins.property
    def exec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec"]:
        '''Exec specifies a command to execute in the container.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#exec
        '''
        result = self._values.get("exec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec"], result)

    @builtins.property
    def failure_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive failures for the probe to be considered failed after having succeeded.

        Defaults to 3. Minimum value is 1.

        :default: 3. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#failureThreshold
        '''
        result = self._values.get("failure_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def grpc(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc"]:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#grpc
        '''
        result = self._values.get("grpc")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc"], result)

    @builtins.property
    def http_get(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet"]:
        '''HTTPGet specifies an HTTP GET request to perform.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#httpGet
        '''
        result = self._values.get("http_get")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet"], result)

    @builtins.property
    def initial_delay_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after the container has started before liveness probes are initiated.

        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#initialDelaySeconds
        '''
        result = self._values.get("initial_delay_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def period_seconds(self) -> typing.Optional[jsii.Number]:
        '''How often (in seconds) to perform the probe.

        Default to 10 seconds. Minimum value is 1.

        :default: 10 seconds. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#periodSeconds
        '''
        result = self._values.get("period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def success_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive successes for the probe to be considered successful after having failed.

        Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.

        :default: 1. Must be 1 for liveness and startup. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#successThreshold
        '''
        result = self._values.get("success_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def tcp_socket(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket"]:
        '''TCPSocket specifies a connection to a TCP port.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#tcpSocket
        '''
        result = self._values.get("tcp_socket")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket"], result)

    @builtins.property
    def termination_grace_period_seconds(self) -> typing.Optional[jsii.Number]:
        '''Optional duration in seconds the pod needs to terminate gracefully upon probe failure.

        The grace period is the duration in seconds after the processes running in the pod are sent
        a termination signal and the time when the processes are forcibly halted with a kill signal.
        Set this value longer than the expected cleanup time for your process.
        If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this
        value overrides the value provided by the pod spec.
        Value must be non-negative integer. The value zero indicates stop immediately via
        the kill signal (no opportunity to shut down).
        This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate.
        Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#terminationGracePeriodSeconds
        '''
        result = self._values.get("termination_grace_period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def timeout_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after which the probe times out.

        Defaults to 1 second. Minimum value is 1.
        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbe#timeoutSeconds
        '''
        result = self._values.get("timeout_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbe(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec",
    jsii_struct_bases=[],
    name_mapping={"command": "command"},
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec:
    def __init__(
        self,
        *,
        command: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''Exec specifies a command to execute in the container.

        :param command: Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__7ad42b9359de0a5e3df8c74c474849641902ade1fdf3e1af54c4ee35f4f8414f)
            check_type(argname="argument command", value=command, expected_type=type_hints["command"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if command is not None:
            self._values["command"] = command

    @builtins.property
    def command(self) -> typing.Optional[typing.List[builtins.str]]:
        '''Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem.

        The command is simply exec'd, it is
        not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use
        a shell, you need to explicitly call out to that shell.
        Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec#command
        '''
        result = self._values.get("command")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "service": "service"},
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc:
    def __init__(
        self,
        *,
        port: jsii.Number,
        service: typing.Optional[builtins.str] = None,
    ) -> None:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :param port: Port number of the gRPC service. Number must be in the range 1 to 65535.
        :param service: Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md). If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__326b0bafbbd69940bdf1c7c1b4100b01726882abb2397134e944c83a1a32df44)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument service", value=service, expected_type=type_hints["service"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if service is not None:
            self._values["service"] = service

    @builtins.property
    def port(self) -> jsii.Number:
        '''Port number of the gRPC service.

        Number must be in the range 1 to 65535.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast(jsii.Number, result)

    @builtins.property
    def service(self) -> typing.Optional[builtins.str]:
        '''Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).

        If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc#service
        '''
        result = self._values.get("service")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet",
    jsii_struct_bases=[],
    name_mapping={
        "port": "port",
        "host": "host",
        "http_headers": "httpHeaders",
        "path": "path",
        "scheme": "scheme",
    },
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort",
        host: typing.Optional[builtins.str] = None,
        http_headers: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders", typing.Dict[builtins.str, typing.Any]]]] = None,
        path: typing.Optional[builtins.str] = None,
        scheme: typing.Optional[builtins.str] = None,
    ) -> None:
        '''HTTPGet specifies an HTTP GET request to perform.

        :param port: Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.
        :param http_headers: Custom headers to set in the request. HTTP allows repeated headers.
        :param path: Path to access on the HTTP server.
        :param scheme: Scheme to use for connecting to the host. Defaults to HTTP. Default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__1ce7ff6e5948f8c9831a98bcf96ddcbb4b28027c6c4fec302f0f648ad9675255)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
            check_type(argname="argument http_headers", value=http_headers, expected_type=type_hints["http_headers"])
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument scheme", value=scheme, expected_type=type_hints["scheme"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host
        if http_headers is not None:
            self._values["http_headers"] = http_headers
        if path is not None:
            self._values["path"] = path
        if scheme is not None:
            self._values["scheme"] = scheme

    @builtins.property
    def port(self) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort":
        '''Name or number of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Host name to connect to, defaults to the pod IP.

        You probably want to set
        "Host" in httpHeaders instead.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def http_headers(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders"]]:
        '''Custom headers to set in the request.

        HTTP allows repeated headers.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet#httpHeaders
        '''
        result = self._values.get("http_headers")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders"]], result)

    @builtins.property
    def path(self) -> typing.Optional[builtins.str]:
        '''Path to access on the HTTP server.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet#path
        '''
        result = self._values.get("path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def scheme(self) -> typing.Optional[builtins.str]:
        '''Scheme to use for connecting to the host.

        Defaults to HTTP.

        :default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet#scheme
        '''
        result = self._values.get("scheme")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''HTTPHeader describes a custom header to be used in HTTP probes.

        :param name: The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.
        :param value: The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ec84c1747400921fe853b6aae1e65ad7354b19d77bccead034979a0cf0c03d28)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''The header field name.

        This will be canonicalized upon output, so case-variant names will be understood as the same header.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort",
):
    '''Name or number of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__322620a9968c027af7105208ede132ffa95c265fbcb943c98dc98a911cc02a07)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__8128ffd6a65c54a8549701aaebb8f9118453253dfa21dfe405bc21b4d0788f1f)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "host": "host"},
)
class InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort",
        host: typing.Optional[builtins.str] = None,
    ) -> None:
        '''TCPSocket specifies a connection to a TCP port.

        :param port: Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__b8b75fce19573de809a85bcc373b3562fd107c0839b4430f357314f65e6cb728)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host

    @builtins.property
    def port(
        self,
    ) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort":
        '''Number or name of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort",
):
    '''Number or name of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6d5ed511782a640bd76565ebc8b25f43871e7488142d76db24ff6bd861206040)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__1eb879a6a3a224e6d57469602c947a1da83704004411b854c1674edea15aeb39)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbe",
    jsii_struct_bases=[],
    name_mapping={
        "exec": "exec",
        "failure_threshold": "failureThreshold",
        "grpc": "grpc",
        "http_get": "httpGet",
        "initial_delay_seconds": "initialDelaySeconds",
        "period_seconds": "periodSeconds",
        "success_threshold": "successThreshold",
        "tcp_socket": "tcpSocket",
        "termination_grace_period_seconds": "terminationGracePeriodSeconds",
        "timeout_seconds": "timeoutSeconds",
    },
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbe:
    def __init__(
        self,
        *,
        exec: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec", typing.Dict[builtins.str, typing.Any]]] = None,
        failure_threshold: typing.Optional[jsii.Number] = None,
        grpc: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc", typing.Dict[builtins.str, typing.Any]]] = None,
        http_get: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet", typing.Dict[builtins.str, typing.Any]]] = None,
        initial_delay_seconds: typing.Optional[jsii.Number] = None,
        period_seconds: typing.Optional[jsii.Number] = None,
        success_threshold: typing.Optional[jsii.Number] = None,
        tcp_socket: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket", typing.Dict[builtins.str, typing.Any]]] = None,
        termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
        timeout_seconds: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''Readiness probe configuration.

        If not specified, default values will be applied.

        :param exec: Exec specifies a command to execute in the container.
        :param failure_threshold: Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1. Default: 3. Minimum value is 1.
        :param grpc: GRPC specifies a GRPC HealthCheckRequest.
        :param http_get: HTTPGet specifies an HTTP GET request to perform.
        :param initial_delay_seconds: Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
        :param period_seconds: How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1. Default: 10 seconds. Minimum value is 1.
        :param success_threshold: Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1. Default: 1. Must be 1 for liveness and startup. Minimum value is 1.
        :param tcp_socket: TCPSocket specifies a connection to a TCP port.
        :param termination_grace_period_seconds: Optional duration in seconds the pod needs to terminate gracefully upon probe failure. The grace period is the duration in seconds after the processes running in the pod are sent a termination signal and the time when the processes are forcibly halted with a kill signal. Set this value longer than the expected cleanup time for your process. If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this value overrides the value provided by the pod spec. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate. Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.
        :param timeout_seconds: Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes Default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe
        '''
        if isinstance(exec, dict):
            exec = InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec(**exec)
        if isinstance(grpc, dict):
            grpc = InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc(**grpc)
        if isinstance(http_get, dict):
            http_get = InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet(**http_get)
        if isinstance(tcp_socket, dict):
            tcp_socket = InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket(**tcp_socket)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__2b0f9c5d827c62006551846886c12b60e03494d93835de0742c112a187d4e71b)
            check_type(argname="argument exec", value=exec, expected_type=type_hints["exec"])
            check_type(argname="argument failure_threshold", value=failure_threshold, expected_type=type_hints["failure_threshold"])
            check_type(argname="argument grpc", value=grpc, expected_type=type_hints["grpc"])
            check_type(argname="argument http_get", value=http_get, expected_type=type_hints["http_get"])
            check_type(argname="argument initial_delay_seconds", value=initial_delay_seconds, expected_type=type_hints["initial_delay_seconds"])
            check_type(argname="argument period_seconds", value=period_seconds, expected_type=type_hints["period_seconds"])
            check_type(argname="argument success_threshold", value=success_threshold, expected_type=type_hints["success_threshold"])
            check_type(argname="argument tcp_socket", value=tcp_socket, expected_type=type_hints["tcp_socket"])
            check_type(argname="argument termination_grace_period_seconds", value=termination_grace_period_seconds, expected_type=type_hints["termination_grace_period_seconds"])
            check_type(argname="argument timeout_seconds", value=timeout_seconds, expected_type=type_hints["timeout_seconds"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if exec is not None:
            self._values["exec"] = exec
        if failure_threshold is not None:
            self._values["failure_threshold"] = failure_threshold
        if grpc is not None:
            self._values["grpc"] = grpc
        if http_get is not None:
            self._values["http_get"] = http_get
        if initial_delay_seconds is not None:
            self._values["initial_delay_seconds"] = initial_delay_seconds
        if period_seconds is not None:
            self._values["period_seconds"] = period_seconds
        if success_threshold is not None:
            self._values["success_threshold"] = success_threshold
        if tcp_socket is not None:
            self._values["tcp_socket"] = tcp_socket
        if termination_grace_period_seconds is not None:
            self._values["termination_grace_period_seconds"] = termination_grace_period_seconds
        if timeout_seconds is not None:
            self._values["timeout_seconds"] = timeout_seconds

    @builtins.property
    def exec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec"]:
        '''Exec specifies a command to execute in the container.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#exec
        '''
        result = self._values.get("exec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec"], result)

    @builtins.property
    def failure_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive failures for the probe to be considered failed after having succeeded.

        Defaults to 3. Minimum value is 1.

        :default: 3. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#failureThreshold
        '''
        result = self._values.get("failure_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def grpc(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc"]:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#grpc
        '''
        result = self._values.get("grpc")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc"], result)

    @builtins.property
    def http_get(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet"]:
        '''HTTPGet specifies an HTTP GET request to perform.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#httpGet
        '''
        result = self._values.get("http_get")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet"], result)

    @builtins.property
    def initial_delay_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after the container has started before liveness probes are initiated.

        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#initialDelaySeconds
        '''
        result = self._values.get("initial_delay_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def period_seconds(self) -> typing.Optional[jsii.Number]:
        '''How often (in seconds) to perform the probe.

        Default to 10 seconds. Minimum value is 1.

        :default: 10 seconds. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#periodSeconds
        '''
        result = self._values.get("period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def success_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive successes for the probe to be considered successful after having failed.

        Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.

        :default: 1. Must be 1 for liveness and startup. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#successThreshold
        '''
        result = self._values.get("success_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def tcp_socket(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket"]:
        '''TCPSocket specifies a connection to a TCP port.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#tcpSocket
        '''
        result = self._values.get("tcp_socket")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket"], result)

    @builtins.property
    def termination_grace_period_seconds(self) -> typing.Optional[jsii.Number]:
        '''Optional duration in seconds the pod needs to terminate gracefully upon probe failure.

        The grace period is the duration in seconds after the processes running in the pod are sent
        a termination signal and the time when the processes are forcibly halted with a kill signal.
        Set this value longer than the expected cleanup time for your process.
        If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this
        value overrides the value provided by the pod spec.
        Value must be non-negative integer. The value zero indicates stop immediately via
        the kill signal (no opportunity to shut down).
        This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate.
        Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#terminationGracePeriodSeconds
        '''
        result = self._values.get("termination_grace_period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def timeout_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after which the probe times out.

        Defaults to 1 second. Minimum value is 1.
        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbe#timeoutSeconds
        '''
        result = self._values.get("timeout_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbe(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec",
    jsii_struct_bases=[],
    name_mapping={"command": "command"},
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec:
    def __init__(
        self,
        *,
        command: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''Exec specifies a command to execute in the container.

        :param command: Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__169c275fe3558c7ec34b12bf71e258cdc0e26824fe77808f58cea2b87a454d16)
            check_type(argname="argument command", value=command, expected_type=type_hints["command"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if command is not None:
            self._values["command"] = command

    @builtins.property
    def command(self) -> typing.Optional[typing.List[builtins.str]]:
        '''Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem.

        The command is simply exec'd, it is
        not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use
        a shell, you need to explicitly call out to that shell.
        Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec#command
        '''
        result = self._values.get("command")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "service": "service"},
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc:
    def __init__(
        self,
        *,
        port: jsii.Number,
        service: typing.Optional[builtins.str] = None,
    ) -> None:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :param port: Port number of the gRPC service. Number must be in the range 1 to 65535.
        :param service: Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md). If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__77ca9fa512888ef86e7eed965e0559536a39b5a0e065fa586508cfba63f6dd0e)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument service", value=service, expected_type=type_hints["service"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if service is not None:
            self._values["service"] = service

    @builtins.property
    def port(self) -> jsii.Number:
        '''Port number of the gRPC service.

        Number must be in the range 1 to 65535.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast(jsii.Number, result)

    @builtins.property
    def service(self) -> typing.Optional[builtins.str]:
        '''Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).

        If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc#service
        '''
        result = self._values.get("service")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet",
    jsii_struct_bases=[],
    name_mapping={
        "port": "port",
        "host": "host",
        "http_headers": "httpHeaders",
        "path": "path",
        "scheme": "scheme",
    },
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort",
        host: typing.Optional[builtins.str] = None,
        http_headers: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders", typing.Dict[builtins.str, typing.Any]]]] = None,
        path: typing.Optional[builtins.str] = None,
        scheme: typing.Optional[builtins.str] = None,
    ) -> None:
        '''HTTPGet specifies an HTTP GET request to perform.

        :param port: Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.
        :param http_headers: Custom headers to set in the request. HTTP allows repeated headers.
        :param path: Path to access on the HTTP server.
        :param scheme: Scheme to use for connecting to the host. Defaults to HTTP. Default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__7d4596065db7c162a79d127a35fb6ed6e856799b80d108fac143c0e3cbdf95d3)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
            check_type(argname="argument http_headers", value=http_headers, expected_type=type_hints["http_headers"])
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument scheme", value=scheme, expected_type=type_hints["scheme"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host
        if http_headers is not None:
            self._values["http_headers"] = http_headers
        if path is not None:
            self._values["path"] = path
        if scheme is not None:
            self._values["scheme"] = scheme

    @builtins.property
    def port(
        self,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort":
        '''Name or number of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Host name to connect to, defaults to the pod IP.

        You probably want to set
        "Host" in httpHeaders instead.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def http_headers(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders"]]:
        '''Custom headers to set in the request.

        HTTP allows repeated headers.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet#httpHeaders
        '''
        result = self._values.get("http_headers")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders"]], result)

    @builtins.property
    def path(self) -> typing.Optional[builtins.str]:
        '''Path to access on the HTTP server.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet#path
        '''
        result = self._values.get("path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def scheme(self) -> typing.Optional[builtins.str]:
        '''Scheme to use for connecting to the host.

        Defaults to HTTP.

        :default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet#scheme
        '''
        result = self._values.get("scheme")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''HTTPHeader describes a custom header to be used in HTTP probes.

        :param name: The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.
        :param value: The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d23f0865157e2b4b56fa79a69fb0e81c082030191273ecb3daf395f119663abd)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''The header field name.

        This will be canonicalized upon output, so case-variant names will be understood as the same header.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort",
):
    '''Name or number of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__464746fb2f1c52662c858252bb408f5640939b921260b3b21becd6ebfa7e74bc)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__076a26d15ed5944ac96babf8eac7b2c4922471157ab00bc277c7346550ac5275)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "host": "host"},
)
class InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort",
        host: typing.Optional[builtins.str] = None,
    ) -> None:
        '''TCPSocket specifies a connection to a TCP port.

        :param port: Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__3744765a187eec613f2b224fb5c64392a3fea417429ce206836fb1888d7976cd)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host

    @builtins.property
    def port(
        self,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort":
        '''Number or name of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort",
):
    '''Number or name of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ab068370ca978a4a7ab1da6f02b792ee432ce43b273ed14107ef4d0e32f9266f)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__e3c831818e5d50b64ff9eaa381f115ee36a356fea8aa110511b8db59f6729e99)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbe",
    jsii_struct_bases=[],
    name_mapping={
        "exec": "exec",
        "failure_threshold": "failureThreshold",
        "grpc": "grpc",
        "http_get": "httpGet",
        "initial_delay_seconds": "initialDelaySeconds",
        "period_seconds": "periodSeconds",
        "success_threshold": "successThreshold",
        "tcp_socket": "tcpSocket",
        "termination_grace_period_seconds": "terminationGracePeriodSeconds",
        "timeout_seconds": "timeoutSeconds",
    },
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbe:
    def __init__(
        self,
        *,
        exec: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbeExec", typing.Dict[builtins.str, typing.Any]]] = None,
        failure_threshold: typing.Optional[jsii.Number] = None,
        grpc: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc", typing.Dict[builtins.str, typing.Any]]] = None,
        http_get: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet", typing.Dict[builtins.str, typing.Any]]] = None,
        initial_delay_seconds: typing.Optional[jsii.Number] = None,
        period_seconds: typing.Optional[jsii.Number] = None,
        success_threshold: typing.Optional[jsii.Number] = None,
        tcp_socket: typing.Optional[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket", typing.Dict[builtins.str, typing.Any]]] = None,
        termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
        timeout_seconds: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''Startup probe configuration.

        :param exec: Exec specifies a command to execute in the container.
        :param failure_threshold: Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1. Default: 3. Minimum value is 1.
        :param grpc: GRPC specifies a GRPC HealthCheckRequest.
        :param http_get: HTTPGet specifies an HTTP GET request to perform.
        :param initial_delay_seconds: Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes
        :param period_seconds: How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1. Default: 10 seconds. Minimum value is 1.
        :param success_threshold: Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1. Default: 1. Must be 1 for liveness and startup. Minimum value is 1.
        :param tcp_socket: TCPSocket specifies a connection to a TCP port.
        :param termination_grace_period_seconds: Optional duration in seconds the pod needs to terminate gracefully upon probe failure. The grace period is the duration in seconds after the processes running in the pod are sent a termination signal and the time when the processes are forcibly halted with a kill signal. Set this value longer than the expected cleanup time for your process. If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this value overrides the value provided by the pod spec. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate. Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.
        :param timeout_seconds: Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes Default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe
        '''
        if isinstance(exec, dict):
            exec = InferenceEndpointConfigSpecWorkerProbesStartupProbeExec(**exec)
        if isinstance(grpc, dict):
            grpc = InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc(**grpc)
        if isinstance(http_get, dict):
            http_get = InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet(**http_get)
        if isinstance(tcp_socket, dict):
            tcp_socket = InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket(**tcp_socket)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__8bfc8cba1b9184f2484befb640f99d12c375794688471a3185b8d82bbbae7d84)
            check_type(argname="argument exec", value=exec, expected_type=type_hints["exec"])
            check_type(argname="argument failure_threshold", value=failure_threshold, expected_type=type_hints["failure_threshold"])
            check_type(argname="argument grpc", value=grpc, expected_type=type_hints["grpc"])
            check_type(argname="argument http_get", value=http_get, expected_type=type_hints["http_get"])
            check_type(argname="argument initial_delay_seconds", value=initial_delay_seconds, expected_type=type_hints["initial_delay_seconds"])
            check_type(argname="argument period_seconds", value=period_seconds, expected_type=type_hints["period_seconds"])
            check_type(argname="argument success_threshold", value=success_threshold, expected_type=type_hints["success_threshold"])
            check_type(argname="argument tcp_socket", value=tcp_socket, expected_type=type_hints["tcp_socket"])
            check_type(argname="argument termination_grace_period_seconds", value=termination_grace_period_seconds, expected_type=type_hints["termination_grace_period_seconds"])
            check_type(argname="argument timeout_seconds", value=timeout_seconds, expected_type=type_hints["timeout_seconds"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if exec is not None:
            self._values["exec"] = exec
        if failure_threshold is not None:
            self._values["failure_threshold"] = failure_threshold
        if grpc is not None:
            self._values["grpc"] = grpc
        if http_get is not None:
            self._values["http_get"] = http_get
        if initial_delay_seconds is not None:
            self._values["initial_delay_seconds"] = initial_delay_seconds
        if period_seconds is not None:
            self._values["period_seconds"] = period_seconds
        if success_threshold is not None:
            self._values["success_threshold"] = success_threshold
        if tcp_socket is not None:
            self._values["tcp_socket"] = tcp_socket
        if termination_grace_period_seconds is not None:
            self._values["termination_grace_period_seconds"] = termination_grace_period_seconds
        if timeout_seconds is not None:
            self._values["timeout_seconds"] = timeout_seconds

    @builtins.property
    def exec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeExec"]:
        '''Exec specifies a command to execute in the container.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#exec
        '''
        result = self._values.get("exec")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeExec"], result)

    @builtins.property
    def failure_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive failures for the probe to be considered failed after having succeeded.

        Defaults to 3. Minimum value is 1.

        :default: 3. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#failureThreshold
        '''
        result = self._values.get("failure_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def grpc(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc"]:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#grpc
        '''
        result = self._values.get("grpc")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc"], result)

    @builtins.property
    def http_get(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet"]:
        '''HTTPGet specifies an HTTP GET request to perform.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#httpGet
        '''
        result = self._values.get("http_get")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet"], result)

    @builtins.property
    def initial_delay_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after the container has started before liveness probes are initiated.

        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#initialDelaySeconds
        '''
        result = self._values.get("initial_delay_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def period_seconds(self) -> typing.Optional[jsii.Number]:
        '''How often (in seconds) to perform the probe.

        Default to 10 seconds. Minimum value is 1.

        :default: 10 seconds. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#periodSeconds
        '''
        result = self._values.get("period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def success_threshold(self) -> typing.Optional[jsii.Number]:
        '''Minimum consecutive successes for the probe to be considered successful after having failed.

        Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.

        :default: 1. Must be 1 for liveness and startup. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#successThreshold
        '''
        result = self._values.get("success_threshold")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def tcp_socket(
        self,
    ) -> typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket"]:
        '''TCPSocket specifies a connection to a TCP port.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#tcpSocket
        '''
        result = self._values.get("tcp_socket")
        return typing.cast(typing.Optional["InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket"], result)

    @builtins.property
    def termination_grace_period_seconds(self) -> typing.Optional[jsii.Number]:
        '''Optional duration in seconds the pod needs to terminate gracefully upon probe failure.

        The grace period is the duration in seconds after the processes running in the pod are sent
        a termination signal and the time when the processes are forcibly halted with a kill signal.
        Set this value longer than the expected cleanup time for your process.
        If this value is nil, the pod's terminationGracePeriodSeconds will be used. Otherwise, this
        value overrides the value provided by the pod spec.
        Value must be non-negative integer. The value zero indicates stop immediately via
        the kill signal (no opportunity to shut down).
        This is a beta field and requires enabling ProbeTerminationGracePeriod feature gate.
        Minimum value is 1. spec.terminationGracePeriodSeconds is used if unset.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#terminationGracePeriodSeconds
        '''
        result = self._values.get("termination_grace_period_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def timeout_seconds(self) -> typing.Optional[jsii.Number]:
        '''Number of seconds after which the probe times out.

        Defaults to 1 second. Minimum value is 1.
        More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes

        :default: 1 second. Minimum value is 1.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbe#timeoutSeconds
        '''
        result = self._values.get("timeout_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbe(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeExec",
    jsii_struct_bases=[],
    name_mapping={"command": "command"},
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbeExec:
    def __init__(
        self,
        *,
        command: typing.Optional[typing.Sequence[builtins.str]] = None,
    ) -> None:
        '''Exec specifies a command to execute in the container.

        :param command: Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeExec
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__87ab04abc16b094c9cb940e2b179866b4cb3ee6dce76d99fdb47f9f590ea099a)
            check_type(argname="argument command", value=command, expected_type=type_hints["command"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if command is not None:
            self._values["command"] = command

    @builtins.property
    def command(self) -> typing.Optional[typing.List[builtins.str]]:
        '''Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem.

        The command is simply exec'd, it is
        not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use
        a shell, you need to explicitly call out to that shell.
        Exit status of 0 is treated as live/healthy and non-zero is unhealthy.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeExec#command
        '''
        result = self._values.get("command")
        return typing.cast(typing.Optional[typing.List[builtins.str]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbeExec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "service": "service"},
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc:
    def __init__(
        self,
        *,
        port: jsii.Number,
        service: typing.Optional[builtins.str] = None,
    ) -> None:
        '''GRPC specifies a GRPC HealthCheckRequest.

        :param port: Port number of the gRPC service. Number must be in the range 1 to 65535.
        :param service: Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md). If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__1e66736084f83dbd3133e7a4fb8810e8b6b83e44f874c4205aea9d75612ef924)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument service", value=service, expected_type=type_hints["service"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if service is not None:
            self._values["service"] = service

    @builtins.property
    def port(self) -> jsii.Number:
        '''Port number of the gRPC service.

        Number must be in the range 1 to 65535.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast(jsii.Number, result)

    @builtins.property
    def service(self) -> typing.Optional[builtins.str]:
        '''Service is the name of the service to place in the gRPC HealthCheckRequest (see https://github.com/grpc/grpc/blob/master/doc/health-checking.md).

        If this is not specified, the default behavior is defined by gRPC.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc#service
        '''
        result = self._values.get("service")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet",
    jsii_struct_bases=[],
    name_mapping={
        "port": "port",
        "host": "host",
        "http_headers": "httpHeaders",
        "path": "path",
        "scheme": "scheme",
    },
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort",
        host: typing.Optional[builtins.str] = None,
        http_headers: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders", typing.Dict[builtins.str, typing.Any]]]] = None,
        path: typing.Optional[builtins.str] = None,
        scheme: typing.Optional[builtins.str] = None,
    ) -> None:
        '''HTTPGet specifies an HTTP GET request to perform.

        :param port: Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.
        :param http_headers: Custom headers to set in the request. HTTP allows repeated headers.
        :param path: Path to access on the HTTP server.
        :param scheme: Scheme to use for connecting to the host. Defaults to HTTP. Default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__2432146edec6f8e753ff3af8e0e0f078a98e5748f1657136055682c432794712)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
            check_type(argname="argument http_headers", value=http_headers, expected_type=type_hints["http_headers"])
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument scheme", value=scheme, expected_type=type_hints["scheme"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host
        if http_headers is not None:
            self._values["http_headers"] = http_headers
        if path is not None:
            self._values["path"] = path
        if scheme is not None:
            self._values["scheme"] = scheme

    @builtins.property
    def port(self) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort":
        '''Name or number of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Host name to connect to, defaults to the pod IP.

        You probably want to set
        "Host" in httpHeaders instead.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def http_headers(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders"]]:
        '''Custom headers to set in the request.

        HTTP allows repeated headers.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet#httpHeaders
        '''
        result = self._values.get("http_headers")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders"]], result)

    @builtins.property
    def path(self) -> typing.Optional[builtins.str]:
        '''Path to access on the HTTP server.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet#path
        '''
        result = self._values.get("path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def scheme(self) -> typing.Optional[builtins.str]:
        '''Scheme to use for connecting to the host.

        Defaults to HTTP.

        :default: HTTP.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet#scheme
        '''
        result = self._values.get("scheme")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''HTTPHeader describes a custom header to be used in HTTP probes.

        :param name: The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.
        :param value: The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__9cfcf4ded2bfbbeeee477905fb4fe4ad77cd618c24fec3e4d8048d67b8b993c5)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''The header field name.

        This will be canonicalized upon output, so case-variant names will be understood as the same header.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''The header field value.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort",
):
    '''Name or number of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__2e92e218ffba174c976ba8ce2bfbfb875807e1e2549d2236b11d46900f0b89fa)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__8c82bf2a3d1a05787514456815fa334c291a1a97efc7515c78f30c5b7939902b)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket",
    jsii_struct_bases=[],
    name_mapping={"port": "port", "host": "host"},
)
class InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket:
    def __init__(
        self,
        *,
        port: "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort",
        host: typing.Optional[builtins.str] = None,
    ) -> None:
        '''TCPSocket specifies a connection to a TCP port.

        :param port: Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.
        :param host: Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__0e0006955f72e5ff236e880ec4ef435c38fb4823a946661bec780b723aed85e5)
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
            check_type(argname="argument host", value=host, expected_type=type_hints["host"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "port": port,
        }
        if host is not None:
            self._values["host"] = host

    @builtins.property
    def port(
        self,
    ) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort":
        '''Number or name of the port to access on the container.

        Number must be in the range 1 to 65535.
        Name must be an IANA_SVC_NAME.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket#port
        '''
        result = self._values.get("port")
        assert result is not None, "Required property 'port' is missing"
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort", result)

    @builtins.property
    def host(self) -> typing.Optional[builtins.str]:
        '''Optional: Host name to connect to, defaults to the pod IP.

        :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket#host
        '''
        result = self._values.get("host")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort",
):
    '''Number or name of the port to access on the container.

    Number must be in the range 1 to 65535.
    Name must be an IANA_SVC_NAME.

    :schema: InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__9414d3bb023555dff4ba5ca875b20a347937b3164a6745093b3d988dc19eda52)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__4d40737ab4b323e492429edd9c0828f83106304e6173a6c026b36855f3a47141)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerResources",
    jsii_struct_bases=[],
    name_mapping={"claims": "claims", "limits": "limits", "requests": "requests"},
)
class InferenceEndpointConfigSpecWorkerResources:
    def __init__(
        self,
        *,
        claims: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigSpecWorkerResourcesClaims", typing.Dict[builtins.str, typing.Any]]]] = None,
        limits: typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesLimits"]] = None,
        requests: typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesRequests"]] = None,
    ) -> None:
        '''Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.

        :param claims: Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container. This field depends on the DynamicResourceAllocation feature gate. This field is immutable. It can only be set for containers.
        :param limits: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
        :param requests: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigSpecWorkerResources
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__eddc00d886ad1017a43f3347ff219a93783c974c50da79d8a1a821c99f8c8150)
            check_type(argname="argument claims", value=claims, expected_type=type_hints["claims"])
            check_type(argname="argument limits", value=limits, expected_type=type_hints["limits"])
            check_type(argname="argument requests", value=requests, expected_type=type_hints["requests"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if claims is not None:
            self._values["claims"] = claims
        if limits is not None:
            self._values["limits"] = limits
        if requests is not None:
            self._values["requests"] = requests

    @builtins.property
    def claims(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerResourcesClaims"]]:
        '''Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.

        This field depends on the
        DynamicResourceAllocation feature gate.

        This field is immutable. It can only be set for containers.

        :schema: InferenceEndpointConfigSpecWorkerResources#claims
        '''
        result = self._values.get("claims")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigSpecWorkerResourcesClaims"]], result)

    @builtins.property
    def limits(
        self,
    ) -> typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesLimits"]]:
        '''Limits describes the maximum amount of compute resources allowed.

        More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigSpecWorkerResources#limits
        '''
        result = self._values.get("limits")
        return typing.cast(typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesLimits"]], result)

    @builtins.property
    def requests(
        self,
    ) -> typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesRequests"]]:
        '''Requests describes the minimum amount of compute resources required.

        If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
        otherwise to an implementation-defined value. Requests cannot exceed Limits.
        More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigSpecWorkerResources#requests
        '''
        result = self._values.get("requests")
        return typing.cast(typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigSpecWorkerResourcesRequests"]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerResources(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerResourcesClaims",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "request": "request"},
)
class InferenceEndpointConfigSpecWorkerResourcesClaims:
    def __init__(
        self,
        *,
        name: builtins.str,
        request: typing.Optional[builtins.str] = None,
    ) -> None:
        '''ResourceClaim references one entry in PodSpec.ResourceClaims.

        :param name: Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.
        :param request: Request is the name chosen for a request in the referenced claim. If empty, everything from the claim is made available, otherwise only the result of this request.

        :schema: InferenceEndpointConfigSpecWorkerResourcesClaims
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ec5ccec2e96fc16326a5b7bfb60c7022ee3820180e75c9300cdff94bcf2dab11)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument request", value=request, expected_type=type_hints["request"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if request is not None:
            self._values["request"] = request

    @builtins.property
    def name(self) -> builtins.str:
        '''Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.

        :schema: InferenceEndpointConfigSpecWorkerResourcesClaims#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def request(self) -> typing.Optional[builtins.str]:
        '''Request is the name chosen for a request in the referenced claim.

        If empty, everything from the claim is made available, otherwise
        only the result of this request.

        :schema: InferenceEndpointConfigSpecWorkerResourcesClaims#request
        '''
        result = self._values.get("request")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigSpecWorkerResourcesClaims(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigSpecWorkerResourcesLimits(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerResourcesLimits",
):
    '''
    :schema: InferenceEndpointConfigSpecWorkerResourcesLimits
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerResourcesLimits":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__884b20d33946475669bdc9c82430599d1a7fe9cb83b180092a4cdb55a29e46a5)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerResourcesLimits", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerResourcesLimits":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__df9b2bd15a2ebc9d531fa6ca5180aa91638ceab8a598c94eb0c1d48de441fafe)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerResourcesLimits", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


class InferenceEndpointConfigSpecWorkerResourcesRequests(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigSpecWorkerResourcesRequests",
):
    '''
    :schema: InferenceEndpointConfigSpecWorkerResourcesRequests
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigSpecWorkerResourcesRequests":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__323d49150ebf3ed967a6cebd27c7083253fcbd35882c1ab9f2b863f42252bc9f)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerResourcesRequests", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigSpecWorkerResourcesRequests":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__b053943e303fe411dbbfbc848a1fcbe3ccd918b303f504e5c1aabf3ffd03bdb7)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigSpecWorkerResourcesRequests", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


class InferenceEndpointConfigV1Alpha1(
    _cdk8s_d3d9af27.ApiObject,
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1",
):
    '''InferenceEndpointConfig is the Schema for the inferenceendpointconfigs API.

    :schema: InferenceEndpointConfigV1Alpha1
    '''

    def __init__(
        self,
        scope: "_constructs_77d1e7e8.Construct",
        id: builtins.str,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1Spec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Defines a "InferenceEndpointConfigV1Alpha1" API object.

        :param scope: the scope in which to define this object.
        :param id: a scope-local name for the object.
        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__57b28186f7e87c5a5ba677bbbdf96c4d1170e7bbb206ed4b79cdfff05abe0aaf)
            check_type(argname="argument scope", value=scope, expected_type=type_hints["scope"])
            check_type(argname="argument id", value=id, expected_type=type_hints["id"])
        props = InferenceEndpointConfigV1Alpha1Props(metadata=metadata, spec=spec)

        jsii.create(self.__class__, self, [scope, id, props])

    @jsii.member(jsii_name="manifest")
    @builtins.classmethod
    def manifest(
        cls,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1Spec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> typing.Any:
        '''Renders a Kubernetes manifest for "InferenceEndpointConfigV1Alpha1".

        This can be used to inline resource manifests inside other objects (e.g. as templates).

        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.
        '''
        props = InferenceEndpointConfigV1Alpha1Props(metadata=metadata, spec=spec)

        return typing.cast(typing.Any, jsii.sinvoke(cls, "manifest", [props]))

    @jsii.member(jsii_name="toJson")
    def to_json(self) -> typing.Any:
        '''Renders the object to Kubernetes JSON.'''
        return typing.cast(typing.Any, jsii.invoke(self, "toJson", []))

    @jsii.python.classproperty
    @jsii.member(jsii_name="GVK")
    def GVK(cls) -> "_cdk8s_d3d9af27.GroupVersionKind":
        '''Returns the apiVersion and kind for "InferenceEndpointConfigV1Alpha1".'''
        return typing.cast("_cdk8s_d3d9af27.GroupVersionKind", jsii.sget(cls, "GVK"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1Props",
    jsii_struct_bases=[],
    name_mapping={"metadata": "metadata", "spec": "spec"},
)
class InferenceEndpointConfigV1Alpha1Props:
    def __init__(
        self,
        *,
        metadata: typing.Optional[typing.Union["_cdk8s_d3d9af27.ApiObjectMetadata", typing.Dict[builtins.str, typing.Any]]] = None,
        spec: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1Spec", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''InferenceEndpointConfig is the Schema for the inferenceendpointconfigs API.

        :param metadata: 
        :param spec: InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :schema: InferenceEndpointConfigV1Alpha1
        '''
        if isinstance(metadata, dict):
            metadata = _cdk8s_d3d9af27.ApiObjectMetadata(**metadata)
        if isinstance(spec, dict):
            spec = InferenceEndpointConfigV1Alpha1Spec(**spec)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ab5a93df5ae05fcbdb15f95c0dda696db2fca782e7f3cca9afd63892463395d1)
            check_type(argname="argument metadata", value=metadata, expected_type=type_hints["metadata"])
            check_type(argname="argument spec", value=spec, expected_type=type_hints["spec"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if metadata is not None:
            self._values["metadata"] = metadata
        if spec is not None:
            self._values["spec"] = spec

    @builtins.property
    def metadata(self) -> typing.Optional["_cdk8s_d3d9af27.ApiObjectMetadata"]:
        '''
        :schema: InferenceEndpointConfigV1Alpha1#metadata
        '''
        result = self._values.get("metadata")
        return typing.cast(typing.Optional["_cdk8s_d3d9af27.ApiObjectMetadata"], result)

    @builtins.property
    def spec(self) -> typing.Optional["InferenceEndpointConfigV1Alpha1Spec"]:
        '''InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :schema: InferenceEndpointConfigV1Alpha1#spec
        '''
        result = self._values.get("spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1Spec"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1Props(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1Spec",
    jsii_struct_bases=[],
    name_mapping={
        "instance_type": "instanceType",
        "model_name": "modelName",
        "model_source_config": "modelSourceConfig",
        "worker": "worker",
        "auto_scaling_spec": "autoScalingSpec",
        "endpoint_name": "endpointName",
        "initial_replica_count": "initialReplicaCount",
        "invocation_endpoint": "invocationEndpoint",
        "load_balancer": "loadBalancer",
        "metrics": "metrics",
        "model_version": "modelVersion",
        "replicas": "replicas",
        "tags": "tags",
        "tls_config": "tlsConfig",
    },
)
class InferenceEndpointConfigV1Alpha1Spec:
    def __init__(
        self,
        *,
        instance_type: builtins.str,
        model_name: builtins.str,
        model_source_config: typing.Union["InferenceEndpointConfigV1Alpha1SpecModelSourceConfig", typing.Dict[builtins.str, typing.Any]],
        worker: typing.Union["InferenceEndpointConfigV1Alpha1SpecWorker", typing.Dict[builtins.str, typing.Any]],
        auto_scaling_spec: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec", typing.Dict[builtins.str, typing.Any]]] = None,
        endpoint_name: typing.Optional[builtins.str] = None,
        initial_replica_count: typing.Optional[jsii.Number] = None,
        invocation_endpoint: typing.Optional[builtins.str] = None,
        load_balancer: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecLoadBalancer", typing.Dict[builtins.str, typing.Any]]] = None,
        metrics: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecMetrics", typing.Dict[builtins.str, typing.Any]]] = None,
        model_version: typing.Optional[builtins.str] = None,
        replicas: typing.Optional[jsii.Number] = None,
        tags: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigV1Alpha1SpecTags", typing.Dict[builtins.str, typing.Any]]]] = None,
        tls_config: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecTlsConfig", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''InferenceEndpointConfigSpec defines the desired state of InferenceEndpointConfig.

        :param instance_type: Instance Type to deploy the model on.
        :param model_name: Name of model that will be created on Sagemaker.
        :param model_source_config: 
        :param worker: Details of the worker.
        :param auto_scaling_spec: 
        :param endpoint_name: Name used for Sagemaker Endpoint Name of a SageMaker endpoint to be created for this InferenceEndpointConfig. The default value of empty string, when used, will skip endpoint creation.
        :param initial_replica_count: Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1. Default: 1.
        :param invocation_endpoint: The invocation endpoint of the model server. http://:/ would be pre-populated based on the other fields. Please fill in the path after http://:/ specific to your model server.
        :param load_balancer: Configuration for Application Load Balancer.
        :param metrics: Configuration for metrics collection and exposure.
        :param model_version: Version of the model used in creating sagemaker endpoint.
        :param replicas: The desired number of inference server replicas. Default 1.
        :param tags: Mentions the tags to be added to the Sagemaker Endpoint.
        :param tls_config: Configurations for TLS.

        :schema: InferenceEndpointConfigV1Alpha1Spec
        '''
        if isinstance(model_source_config, dict):
            model_source_config = InferenceEndpointConfigV1Alpha1SpecModelSourceConfig(**model_source_config)
        if isinstance(worker, dict):
            worker = InferenceEndpointConfigV1Alpha1SpecWorker(**worker)
        if isinstance(auto_scaling_spec, dict):
            auto_scaling_spec = InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec(**auto_scaling_spec)
        if isinstance(load_balancer, dict):
            load_balancer = InferenceEndpointConfigV1Alpha1SpecLoadBalancer(**load_balancer)
        if isinstance(metrics, dict):
            metrics = InferenceEndpointConfigV1Alpha1SpecMetrics(**metrics)
        if isinstance(tls_config, dict):
            tls_config = InferenceEndpointConfigV1Alpha1SpecTlsConfig(**tls_config)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__7e195ec0730f13543ac2f4ba1501e6ffeb59955910e79ba49488445f66038e76)
            check_type(argname="argument instance_type", value=instance_type, expected_type=type_hints["instance_type"])
            check_type(argname="argument model_name", value=model_name, expected_type=type_hints["model_name"])
            check_type(argname="argument model_source_config", value=model_source_config, expected_type=type_hints["model_source_config"])
            check_type(argname="argument worker", value=worker, expected_type=type_hints["worker"])
            check_type(argname="argument auto_scaling_spec", value=auto_scaling_spec, expected_type=type_hints["auto_scaling_spec"])
            check_type(argname="argument endpoint_name", value=endpoint_name, expected_type=type_hints["endpoint_name"])
            check_type(argname="argument initial_replica_count", value=initial_replica_count, expected_type=type_hints["initial_replica_count"])
            check_type(argname="argument invocation_endpoint", value=invocation_endpoint, expected_type=type_hints["invocation_endpoint"])
            check_type(argname="argument load_balancer", value=load_balancer, expected_type=type_hints["load_balancer"])
            check_type(argname="argument metrics", value=metrics, expected_type=type_hints["metrics"])
            check_type(argname="argument model_version", value=model_version, expected_type=type_hints["model_version"])
            check_type(argname="argument replicas", value=replicas, expected_type=type_hints["replicas"])
            check_type(argname="argument tags", value=tags, expected_type=type_hints["tags"])
            check_type(argname="argument tls_config", value=tls_config, expected_type=type_hints["tls_config"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "instance_type": instance_type,
            "model_name": model_name,
            "model_source_config": model_source_config,
            "worker": worker,
        }
        if auto_scaling_spec is not None:
            self._values["auto_scaling_spec"] = auto_scaling_spec
        if endpoint_name is not None:
            self._values["endpoint_name"] = endpoint_name
        if initial_replica_count is not None:
            self._values["initial_replica_count"] = initial_replica_count
        if invocation_endpoint is not None:
            self._values["invocation_endpoint"] = invocation_endpoint
        if load_balancer is not None:
            self._values["load_balancer"] = load_balancer
        if metrics is not None:
            self._values["metrics"] = metrics
        if model_version is not None:
            self._values["model_version"] = model_version
        if replicas is not None:
            self._values["replicas"] = replicas
        if tags is not None:
            self._values["tags"] = tags
        if tls_config is not None:
            self._values["tls_config"] = tls_config

    @builtins.property
    def instance_type(self) -> builtins.str:
        '''Instance Type to deploy the model on.

        :schema: InferenceEndpointConfigV1Alpha1Spec#instanceType
        '''
        result = self._values.get("instance_type")
        assert result is not None, "Required property 'instance_type' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def model_name(self) -> builtins.str:
        '''Name of model that will be created on Sagemaker.

        :schema: InferenceEndpointConfigV1Alpha1Spec#modelName
        '''
        result = self._values.get("model_name")
        assert result is not None, "Required property 'model_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def model_source_config(
        self,
    ) -> "InferenceEndpointConfigV1Alpha1SpecModelSourceConfig":
        '''
        :schema: InferenceEndpointConfigV1Alpha1Spec#modelSourceConfig
        '''
        result = self._values.get("model_source_config")
        assert result is not None, "Required property 'model_source_config' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecModelSourceConfig", result)

    @builtins.property
    def worker(self) -> "InferenceEndpointConfigV1Alpha1SpecWorker":
        '''Details of the worker.

        :schema: InferenceEndpointConfigV1Alpha1Spec#worker
        '''
        result = self._values.get("worker")
        assert result is not None, "Required property 'worker' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorker", result)

    @builtins.property
    def auto_scaling_spec(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec"]:
        '''
        :schema: InferenceEndpointConfigV1Alpha1Spec#autoScalingSpec
        '''
        result = self._values.get("auto_scaling_spec")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec"], result)

    @builtins.property
    def endpoint_name(self) -> typing.Optional[builtins.str]:
        '''Name used for Sagemaker Endpoint Name of a SageMaker endpoint to be created for this InferenceEndpointConfig.

        The default value of empty string, when used, will skip endpoint creation.

        :schema: InferenceEndpointConfigV1Alpha1Spec#endpointName
        '''
        result = self._values.get("endpoint_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def initial_replica_count(self) -> typing.Optional[jsii.Number]:
        '''Number of desired pods.

        This is a pointer to distinguish between explicit
        zero and not specified. Defaults to 1.

        :default: 1.

        :schema: InferenceEndpointConfigV1Alpha1Spec#InitialReplicaCount
        '''
        result = self._values.get("initial_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def invocation_endpoint(self) -> typing.Optional[builtins.str]:
        '''The invocation endpoint of the model server.

        http://:/ would be pre-populated based on the other fields.
        Please fill in the path after http://:/ specific to your model server.

        :schema: InferenceEndpointConfigV1Alpha1Spec#invocationEndpoint
        '''
        result = self._values.get("invocation_endpoint")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def load_balancer(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecLoadBalancer"]:
        '''Configuration for Application Load Balancer.

        :schema: InferenceEndpointConfigV1Alpha1Spec#loadBalancer
        '''
        result = self._values.get("load_balancer")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecLoadBalancer"], result)

    @builtins.property
    def metrics(self) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecMetrics"]:
        '''Configuration for metrics collection and exposure.

        :schema: InferenceEndpointConfigV1Alpha1Spec#metrics
        '''
        result = self._values.get("metrics")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecMetrics"], result)

    @builtins.property
    def model_version(self) -> typing.Optional[builtins.str]:
        '''Version of the model used in creating sagemaker endpoint.

        :schema: InferenceEndpointConfigV1Alpha1Spec#modelVersion
        '''
        result = self._values.get("model_version")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def replicas(self) -> typing.Optional[jsii.Number]:
        '''The desired number of inference server replicas.

        Default 1.

        :schema: InferenceEndpointConfigV1Alpha1Spec#replicas
        '''
        result = self._values.get("replicas")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def tags(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecTags"]]:
        '''Mentions the tags to be added to the Sagemaker Endpoint.

        :schema: InferenceEndpointConfigV1Alpha1Spec#tags
        '''
        result = self._values.get("tags")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecTags"]], result)

    @builtins.property
    def tls_config(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecTlsConfig"]:
        '''Configurations for TLS.

        :schema: InferenceEndpointConfigV1Alpha1Spec#tlsConfig
        '''
        result = self._values.get("tls_config")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecTlsConfig"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1Spec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec",
    jsii_struct_bases=[],
    name_mapping={
        "cloud_watch_trigger": "cloudWatchTrigger",
        "cooldown_period": "cooldownPeriod",
        "initial_cooldown_period": "initialCooldownPeriod",
        "max_replica_count": "maxReplicaCount",
        "min_replica_count": "minReplicaCount",
        "polling_interval": "pollingInterval",
        "prometheus_trigger": "prometheusTrigger",
        "scale_down_stabilization_time": "scaleDownStabilizationTime",
        "scale_up_stabilization_time": "scaleUpStabilizationTime",
    },
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec:
    def __init__(
        self,
        *,
        cloud_watch_trigger: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        cooldown_period: typing.Optional[jsii.Number] = None,
        initial_cooldown_period: typing.Optional[jsii.Number] = None,
        max_replica_count: typing.Optional[jsii.Number] = None,
        min_replica_count: typing.Optional[jsii.Number] = None,
        polling_interval: typing.Optional[jsii.Number] = None,
        prometheus_trigger: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger", typing.Dict[builtins.str, typing.Any]]] = None,
        scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
        scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''
        :param cloud_watch_trigger: CloudWatch metric trigger to use for autoscaling.
        :param cooldown_period: The period to wait after the last trigger reported active before scaling the resource back to 0. Default 300 seconds.
        :param initial_cooldown_period: The delay before the cooldownPeriod starts after the initial creation of the ScaledObject. Default 300 seconds.
        :param max_replica_count: The maximum number of model pods to scale to. Default 5.
        :param min_replica_count: The minimum number of model pods to scale down to. Default 1.
        :param polling_interval: This is the interval to check each trigger on. Default 30 seconds.
        :param prometheus_trigger: Prometheus metric trigger to use for autoscaling.
        :param scale_down_stabilization_time: The time window to stabilize for HPA before scaling down. Default 300 seconds.
        :param scale_up_stabilization_time: The time window to stabilize for HPA before scaling up. Default 0 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec
        '''
        if isinstance(cloud_watch_trigger, dict):
            cloud_watch_trigger = InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger(**cloud_watch_trigger)
        if isinstance(prometheus_trigger, dict):
            prometheus_trigger = InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger(**prometheus_trigger)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6a7e36fd2775d9ca83fc4b458987904e38b2caeefa52fbf64429396b9174b2ff)
            check_type(argname="argument cloud_watch_trigger", value=cloud_watch_trigger, expected_type=type_hints["cloud_watch_trigger"])
            check_type(argname="argument cooldown_period", value=cooldown_period, expected_type=type_hints["cooldown_period"])
            check_type(argname="argument initial_cooldown_period", value=initial_cooldown_period, expected_type=type_hints["initial_cooldown_period"])
            check_type(argname="argument max_replica_count", value=max_replica_count, expected_type=type_hints["max_replica_count"])
            check_type(argname="argument min_replica_count", value=min_replica_count, expected_type=type_hints["min_replica_count"])
            check_type(argname="argument polling_interval", value=polling_interval, expected_type=type_hints["polling_interval"])
            check_type(argname="argument prometheus_trigger", value=prometheus_trigger, expected_type=type_hints["prometheus_trigger"])
            check_type(argname="argument scale_down_stabilization_time", value=scale_down_stabilization_time, expected_type=type_hints["scale_down_stabilization_time"])
            check_type(argname="argument scale_up_stabilization_time", value=scale_up_stabilization_time, expected_type=type_hints["scale_up_stabilization_time"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if cloud_watch_trigger is not None:
            self._values["cloud_watch_trigger"] = cloud_watch_trigger
        if cooldown_period is not None:
            self._values["cooldown_period"] = cooldown_period
        if initial_cooldown_period is not None:
            self._values["initial_cooldown_period"] = initial_cooldown_period
        if max_replica_count is not None:
            self._values["max_replica_count"] = max_replica_count
        if min_replica_count is not None:
            self._values["min_replica_count"] = min_replica_count
        if polling_interval is not None:
            self._values["polling_interval"] = polling_interval
        if prometheus_trigger is not None:
            self._values["prometheus_trigger"] = prometheus_trigger
        if scale_down_stabilization_time is not None:
            self._values["scale_down_stabilization_time"] = scale_down_stabilization_time
        if scale_up_stabilization_time is not None:
            self._values["scale_up_stabilization_time"] = scale_up_stabilization_time

    @builtins.property
    def cloud_watch_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger"]:
        '''CloudWatch metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#cloudWatchTrigger
        '''
        result = self._values.get("cloud_watch_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger"], result)

    @builtins.property
    def cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The period to wait after the last trigger reported active before scaling the resource back to 0.

        Default 300 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#cooldownPeriod
        '''
        result = self._values.get("cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def initial_cooldown_period(self) -> typing.Optional[jsii.Number]:
        '''The delay before the cooldownPeriod starts after the initial creation of the ScaledObject.

        Default 300 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#initialCooldownPeriod
        '''
        result = self._values.get("initial_cooldown_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def max_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The maximum number of model pods to scale to.

        Default 5.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#maxReplicaCount
        '''
        result = self._values.get("max_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def min_replica_count(self) -> typing.Optional[jsii.Number]:
        '''The minimum number of model pods to scale down to.

        Default 1.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#minReplicaCount
        '''
        result = self._values.get("min_replica_count")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def polling_interval(self) -> typing.Optional[jsii.Number]:
        '''This is the interval to check each trigger on.

        Default 30 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#pollingInterval
        '''
        result = self._values.get("polling_interval")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def prometheus_trigger(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger"]:
        '''Prometheus metric trigger to use for autoscaling.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#prometheusTrigger
        '''
        result = self._values.get("prometheus_trigger")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger"], result)

    @builtins.property
    def scale_down_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling down.

        Default 300 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#scaleDownStabilizationTime
        '''
        result = self._values.get("scale_down_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def scale_up_stabilization_time(self) -> typing.Optional[jsii.Number]:
        '''The time window to stabilize for HPA before scaling up.

        Default 0 seconds.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec#scaleUpStabilizationTime
        '''
        result = self._values.get("scale_up_stabilization_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "dimensions": "dimensions",
        "metric_collection_period": "metricCollectionPeriod",
        "metric_collection_start_time": "metricCollectionStartTime",
        "metric_name": "metricName",
        "metric_stat": "metricStat",
        "metric_type": "metricType",
        "min_value": "minValue",
        "name": "name",
        "namespace": "namespace",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        dimensions: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions", typing.Dict[builtins.str, typing.Any]]]] = None,
        metric_collection_period: typing.Optional[jsii.Number] = None,
        metric_collection_start_time: typing.Optional[jsii.Number] = None,
        metric_name: typing.Optional[builtins.str] = None,
        metric_stat: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType"] = None,
        min_value: typing.Optional[jsii.Number] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''CloudWatch metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for CloudWatch metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param dimensions: Dimensions for Cloudwatch metrics.
        :param metric_collection_period: Defines the Period for CloudWatch query.
        :param metric_collection_start_time: Defines the StartTime for CloudWatch query.
        :param metric_name: Metric name to query for Cloudwatch trigger.
        :param metric_stat: Statistics metric to be used by Trigger. Used to define Stat for CloudWatch query. Default is Average. Default: Average.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param min_value: Minimum metric value used in case of empty response from CloudWatch. Default is 0. Default: 0.
        :param name: Name for the CloudWatch trigger.
        :param namespace: AWS CloudWatch namespace for metric.
        :param target_value: TargetValue for CloudWatch metric.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__f7068837eaea7b85a93b6b0c3cf0a0f071c7b2a50fc08c0c8b6bb9ef72ec12c1)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument dimensions", value=dimensions, expected_type=type_hints["dimensions"])
            check_type(argname="argument metric_collection_period", value=metric_collection_period, expected_type=type_hints["metric_collection_period"])
            check_type(argname="argument metric_collection_start_time", value=metric_collection_start_time, expected_type=type_hints["metric_collection_start_time"])
            check_type(argname="argument metric_name", value=metric_name, expected_type=type_hints["metric_name"])
            check_type(argname="argument metric_stat", value=metric_stat, expected_type=type_hints["metric_stat"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument min_value", value=min_value, expected_type=type_hints["min_value"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if dimensions is not None:
            self._values["dimensions"] = dimensions
        if metric_collection_period is not None:
            self._values["metric_collection_period"] = metric_collection_period
        if metric_collection_start_time is not None:
            self._values["metric_collection_start_time"] = metric_collection_start_time
        if metric_name is not None:
            self._values["metric_name"] = metric_name
        if metric_stat is not None:
            self._values["metric_stat"] = metric_stat
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if min_value is not None:
            self._values["min_value"] = min_value
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for CloudWatch metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def dimensions(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions"]]:
        '''Dimensions for Cloudwatch metrics.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#dimensions
        '''
        result = self._values.get("dimensions")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions"]], result)

    @builtins.property
    def metric_collection_period(self) -> typing.Optional[jsii.Number]:
        '''Defines the Period for CloudWatch query.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#metricCollectionPeriod
        '''
        result = self._values.get("metric_collection_period")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_collection_start_time(self) -> typing.Optional[jsii.Number]:
        '''Defines the StartTime for CloudWatch query.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#metricCollectionStartTime
        '''
        result = self._values.get("metric_collection_start_time")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def metric_name(self) -> typing.Optional[builtins.str]:
        '''Metric name to query for Cloudwatch trigger.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#metricName
        '''
        result = self._values.get("metric_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_stat(self) -> typing.Optional[builtins.str]:
        '''Statistics metric to be used by Trigger.

        Used to define Stat for CloudWatch query. Default is Average.

        :default: Average.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#metricStat
        '''
        result = self._values.get("metric_stat")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType"], result)

    @builtins.property
    def min_value(self) -> typing.Optional[jsii.Number]:
        '''Minimum metric value used in case of empty response from CloudWatch.

        Default is 0.

        :default: 0.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#minValue
        '''
        result = self._values.get("min_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the CloudWatch trigger.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''AWS CloudWatch namespace for metric.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''TargetValue for CloudWatch metric.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: CloudWatch Metric dimension name.
        :param value: CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__b320195b36472cb3859b2055d781fa078106cc66df4141c9d7cf8778a1ca173a)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''CloudWatch Metric dimension name.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''CloudWatch Metric dimension value.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType"
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger",
    jsii_struct_bases=[],
    name_mapping={
        "activation_target_value": "activationTargetValue",
        "custom_headers": "customHeaders",
        "metric_type": "metricType",
        "name": "name",
        "namespace": "namespace",
        "query": "query",
        "server_address": "serverAddress",
        "target_value": "targetValue",
        "use_cached_metrics": "useCachedMetrics",
    },
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger:
    def __init__(
        self,
        *,
        activation_target_value: typing.Optional[jsii.Number] = None,
        custom_headers: typing.Optional[builtins.str] = None,
        metric_type: typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType"] = None,
        name: typing.Optional[builtins.str] = None,
        namespace: typing.Optional[builtins.str] = None,
        query: typing.Optional[builtins.str] = None,
        server_address: typing.Optional[builtins.str] = None,
        target_value: typing.Optional[jsii.Number] = None,
        use_cached_metrics: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Prometheus metric trigger to use for autoscaling.

        :param activation_target_value: Activation Value for Prometheus metric to scale from 0 to 1. Only applicable if minReplicaCount = 0
        :param custom_headers: Custom headers to include while querying the prometheus endpoint.
        :param metric_type: The type of metric to be used by HPA. Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value
        :param name: Name for the Prometheus trigger.
        :param namespace: Namespace for namespaced queries.
        :param query: PromQLQuery for the metric.
        :param server_address: Server address for AMP workspace.
        :param target_value: Target metric value for scaling.
        :param use_cached_metrics: Enable caching of metric values during polling interval. Default is true Default: true

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d04d2e87bc8a398e302a2e2e5c5917400b28809bc85ee8545ebffc421c1e7b4d)
            check_type(argname="argument activation_target_value", value=activation_target_value, expected_type=type_hints["activation_target_value"])
            check_type(argname="argument custom_headers", value=custom_headers, expected_type=type_hints["custom_headers"])
            check_type(argname="argument metric_type", value=metric_type, expected_type=type_hints["metric_type"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument namespace", value=namespace, expected_type=type_hints["namespace"])
            check_type(argname="argument query", value=query, expected_type=type_hints["query"])
            check_type(argname="argument server_address", value=server_address, expected_type=type_hints["server_address"])
            check_type(argname="argument target_value", value=target_value, expected_type=type_hints["target_value"])
            check_type(argname="argument use_cached_metrics", value=use_cached_metrics, expected_type=type_hints["use_cached_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if activation_target_value is not None:
            self._values["activation_target_value"] = activation_target_value
        if custom_headers is not None:
            self._values["custom_headers"] = custom_headers
        if metric_type is not None:
            self._values["metric_type"] = metric_type
        if name is not None:
            self._values["name"] = name
        if namespace is not None:
            self._values["namespace"] = namespace
        if query is not None:
            self._values["query"] = query
        if server_address is not None:
            self._values["server_address"] = server_address
        if target_value is not None:
            self._values["target_value"] = target_value
        if use_cached_metrics is not None:
            self._values["use_cached_metrics"] = use_cached_metrics

    @builtins.property
    def activation_target_value(self) -> typing.Optional[jsii.Number]:
        '''Activation Value for Prometheus metric to scale from 0 to 1.

        Only applicable if minReplicaCount = 0

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#activationTargetValue
        '''
        result = self._values.get("activation_target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def custom_headers(self) -> typing.Optional[builtins.str]:
        '''Custom headers to include while querying the prometheus endpoint.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#customHeaders
        '''
        result = self._values.get("custom_headers")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def metric_type(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType"]:
        '''The type of metric to be used by HPA.

        Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#metricType
        '''
        result = self._values.get("metric_type")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType"], result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name for the Prometheus trigger.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def namespace(self) -> typing.Optional[builtins.str]:
        '''Namespace for namespaced queries.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#namespace
        '''
        result = self._values.get("namespace")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def query(self) -> typing.Optional[builtins.str]:
        '''PromQLQuery for the metric.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#query
        '''
        result = self._values.get("query")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def server_address(self) -> typing.Optional[builtins.str]:
        '''Server address for AMP workspace.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#serverAddress
        '''
        result = self._values.get("server_address")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def target_value(self) -> typing.Optional[jsii.Number]:
        '''Target metric value for scaling.

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#targetValue
        '''
        result = self._values.get("target_value")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def use_cached_metrics(self) -> typing.Optional[builtins.bool]:
        '''Enable caching of metric values during polling interval.

        Default is true

        :default: true

        :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger#useCachedMetrics
        '''
        result = self._values.get("use_cached_metrics")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType"
)
class InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType(
    enum.Enum,
):
    '''The type of metric to be used by HPA.

    Enum: AverageValue - Uses average value of metric per pod, Value - Uses absolute metric value

    :schema: InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType
    '''

    VALUE = "VALUE"
    '''Value.'''
    AVERAGE = "AVERAGE"
    '''Average.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecLoadBalancer",
    jsii_struct_bases=[],
    name_mapping={
        "health_check_path": "healthCheckPath",
        "routing_algorithm": "routingAlgorithm",
    },
)
class InferenceEndpointConfigV1Alpha1SpecLoadBalancer:
    def __init__(
        self,
        *,
        health_check_path: typing.Optional[builtins.str] = None,
        routing_algorithm: typing.Optional["InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm"] = None,
    ) -> None:
        '''Configuration for Application Load Balancer.

        :param health_check_path: Health check path for the ALB target group. Defaults to /ping if not specified. Default: ping if not specified.
        :param routing_algorithm: Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

        :schema: InferenceEndpointConfigV1Alpha1SpecLoadBalancer
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d8155347fd91d4deb5b548dbf57befb2a3b30987f351c14663665a4d0f46a40e)
            check_type(argname="argument health_check_path", value=health_check_path, expected_type=type_hints["health_check_path"])
            check_type(argname="argument routing_algorithm", value=routing_algorithm, expected_type=type_hints["routing_algorithm"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if health_check_path is not None:
            self._values["health_check_path"] = health_check_path
        if routing_algorithm is not None:
            self._values["routing_algorithm"] = routing_algorithm

    @builtins.property
    def health_check_path(self) -> typing.Optional[builtins.str]:
        '''Health check path for the ALB target group.

        Defaults to /ping if not specified.

        :default: ping if not specified.

        :schema: InferenceEndpointConfigV1Alpha1SpecLoadBalancer#healthCheckPath
        '''
        result = self._values.get("health_check_path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def routing_algorithm(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm"]:
        '''Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

        :schema: InferenceEndpointConfigV1Alpha1SpecLoadBalancer#routingAlgorithm
        '''
        result = self._values.get("routing_algorithm")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecLoadBalancer(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm"
)
class InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm(enum.Enum):
    '''Routing algorithm for the ALB target group (least_oustanding_requests or round_robin).

    :schema: InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm
    '''

    LEAST_UNDERSCORE_OUTSTANDING_UNDERSCORE_REQUESTS = "LEAST_UNDERSCORE_OUTSTANDING_UNDERSCORE_REQUESTS"
    '''least_outstanding_requests.'''
    ROUND_UNDERSCORE_ROBIN = "ROUND_UNDERSCORE_ROBIN"
    '''round_robin.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecMetrics",
    jsii_struct_bases=[],
    name_mapping={
        "enabled": "enabled",
        "metrics_scrape_interval_seconds": "metricsScrapeIntervalSeconds",
        "model_metrics": "modelMetrics",
    },
)
class InferenceEndpointConfigV1Alpha1SpecMetrics:
    def __init__(
        self,
        *,
        enabled: typing.Optional[builtins.bool] = None,
        metrics_scrape_interval_seconds: typing.Optional[jsii.Number] = None,
        model_metrics: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Configuration for metrics collection and exposure.

        :param enabled: Enable metrics collection for this model deployment.
        :param metrics_scrape_interval_seconds: Scrape interval in seconds for metrics collection from sidecar and model container.
        :param model_metrics: Configuration for model container metrics scraping.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetrics
        '''
        if isinstance(model_metrics, dict):
            model_metrics = InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics(**model_metrics)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__471cc423e2b411f53f89e5c0199ffcce53fb6f88057476f5acff8abd88ebd056)
            check_type(argname="argument enabled", value=enabled, expected_type=type_hints["enabled"])
            check_type(argname="argument metrics_scrape_interval_seconds", value=metrics_scrape_interval_seconds, expected_type=type_hints["metrics_scrape_interval_seconds"])
            check_type(argname="argument model_metrics", value=model_metrics, expected_type=type_hints["model_metrics"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if enabled is not None:
            self._values["enabled"] = enabled
        if metrics_scrape_interval_seconds is not None:
            self._values["metrics_scrape_interval_seconds"] = metrics_scrape_interval_seconds
        if model_metrics is not None:
            self._values["model_metrics"] = model_metrics

    @builtins.property
    def enabled(self) -> typing.Optional[builtins.bool]:
        '''Enable metrics collection for this model deployment.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetrics#enabled
        '''
        result = self._values.get("enabled")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def metrics_scrape_interval_seconds(self) -> typing.Optional[jsii.Number]:
        '''Scrape interval in seconds for metrics collection from sidecar and model container.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetrics#metricsScrapeIntervalSeconds
        '''
        result = self._values.get("metrics_scrape_interval_seconds")
        return typing.cast(typing.Optional[jsii.Number], result)

    @builtins.property
    def model_metrics(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics"]:
        '''Configuration for model container metrics scraping.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetrics#modelMetrics
        '''
        result = self._values.get("model_metrics")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecMetrics(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics",
    jsii_struct_bases=[],
    name_mapping={"path": "path", "port": "port"},
)
class InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics:
    def __init__(
        self,
        *,
        path: typing.Optional[builtins.str] = None,
        port: typing.Optional[jsii.Number] = None,
    ) -> None:
        '''Configuration for model container metrics scraping.

        :param path: Path where the model exposes metrics.
        :param port: Port where the model exposes metrics. If not specified, a default port will be used.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__d2cccff18dac19c5a4f2c42dcd3cc5e595236750b1db08d869ea4016b11662d3)
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument port", value=port, expected_type=type_hints["port"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if path is not None:
            self._values["path"] = path
        if port is not None:
            self._values["port"] = port

    @builtins.property
    def path(self) -> typing.Optional[builtins.str]:
        '''Path where the model exposes metrics.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics#path
        '''
        result = self._values.get("path")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def port(self) -> typing.Optional[jsii.Number]:
        '''Port where the model exposes metrics.

        If not specified, a default port will be used.

        :schema: InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics#port
        '''
        result = self._values.get("port")
        return typing.cast(typing.Optional[jsii.Number], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecModelSourceConfig",
    jsii_struct_bases=[],
    name_mapping={
        "model_source_type": "modelSourceType",
        "fsx_storage": "fsxStorage",
        "model_location": "modelLocation",
        "prefetch_enabled": "prefetchEnabled",
        "s3_storage": "s3Storage",
    },
)
class InferenceEndpointConfigV1Alpha1SpecModelSourceConfig:
    def __init__(
        self,
        *,
        model_source_type: "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType",
        fsx_storage: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage", typing.Dict[builtins.str, typing.Any]]] = None,
        model_location: typing.Optional[builtins.str] = None,
        prefetch_enabled: typing.Optional[builtins.bool] = None,
        s3_storage: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''
        :param model_source_type: 
        :param fsx_storage: 
        :param model_location: Specific location where the model data exists.
        :param prefetch_enabled: In case the model seems to fit within the instance's memory (VRAM), this option can be used to pre-fetch the model to RAM and then the inference server will load to the GPU/CPU device thereafter.
        :param s3_storage: 

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig
        '''
        if isinstance(fsx_storage, dict):
            fsx_storage = InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage(**fsx_storage)
        if isinstance(s3_storage, dict):
            s3_storage = InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage(**s3_storage)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__f2e9c757aa79acf34ce70efbfcc28b3e1440ca4fcf1516e802825f0945fd4ead)
            check_type(argname="argument model_source_type", value=model_source_type, expected_type=type_hints["model_source_type"])
            check_type(argname="argument fsx_storage", value=fsx_storage, expected_type=type_hints["fsx_storage"])
            check_type(argname="argument model_location", value=model_location, expected_type=type_hints["model_location"])
            check_type(argname="argument prefetch_enabled", value=prefetch_enabled, expected_type=type_hints["prefetch_enabled"])
            check_type(argname="argument s3_storage", value=s3_storage, expected_type=type_hints["s3_storage"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "model_source_type": model_source_type,
        }
        if fsx_storage is not None:
            self._values["fsx_storage"] = fsx_storage
        if model_location is not None:
            self._values["model_location"] = model_location
        if prefetch_enabled is not None:
            self._values["prefetch_enabled"] = prefetch_enabled
        if s3_storage is not None:
            self._values["s3_storage"] = s3_storage

    @builtins.property
    def model_source_type(
        self,
    ) -> "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType":
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig#modelSourceType
        '''
        result = self._values.get("model_source_type")
        assert result is not None, "Required property 'model_source_type' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType", result)

    @builtins.property
    def fsx_storage(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage"]:
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig#fsxStorage
        '''
        result = self._values.get("fsx_storage")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage"], result)

    @builtins.property
    def model_location(self) -> typing.Optional[builtins.str]:
        '''Specific location where the model data exists.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig#modelLocation
        '''
        result = self._values.get("model_location")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def prefetch_enabled(self) -> typing.Optional[builtins.bool]:
        '''In case the model seems to fit within the instance's memory (VRAM), this option can be used to pre-fetch the model to RAM and then the inference server will load to the GPU/CPU device thereafter.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig#prefetchEnabled
        '''
        result = self._values.get("prefetch_enabled")
        return typing.cast(typing.Optional[builtins.bool], result)

    @builtins.property
    def s3_storage(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage"]:
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfig#s3Storage
        '''
        result = self._values.get("s3_storage")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecModelSourceConfig(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage",
    jsii_struct_bases=[],
    name_mapping={
        "file_system_id": "fileSystemId",
        "dns_name": "dnsName",
        "mount_name": "mountName",
    },
)
class InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage:
    def __init__(
        self,
        *,
        file_system_id: builtins.str,
        dns_name: typing.Optional[builtins.str] = None,
        mount_name: typing.Optional[builtins.str] = None,
    ) -> None:
        '''
        :param file_system_id: FSX File System ID.
        :param dns_name: FSX File System DNS Name.
        :param mount_name: FSX File System Mount Name.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__075ea67e4b158b427f464acb6bc341707702cfab0768e1517e7266f6ef044ee2)
            check_type(argname="argument file_system_id", value=file_system_id, expected_type=type_hints["file_system_id"])
            check_type(argname="argument dns_name", value=dns_name, expected_type=type_hints["dns_name"])
            check_type(argname="argument mount_name", value=mount_name, expected_type=type_hints["mount_name"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "file_system_id": file_system_id,
        }
        if dns_name is not None:
            self._values["dns_name"] = dns_name
        if mount_name is not None:
            self._values["mount_name"] = mount_name

    @builtins.property
    def file_system_id(self) -> builtins.str:
        '''FSX File System ID.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage#fileSystemId
        '''
        result = self._values.get("file_system_id")
        assert result is not None, "Required property 'file_system_id' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def dns_name(self) -> typing.Optional[builtins.str]:
        '''FSX File System DNS Name.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage#dnsName
        '''
        result = self._values.get("dns_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def mount_name(self) -> typing.Optional[builtins.str]:
        '''FSX File System Mount Name.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage#mountName
        '''
        result = self._values.get("mount_name")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.enum(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType"
)
class InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType(enum.Enum):
    '''
    :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType
    '''

    FSX = "FSX"
    '''fsx.'''
    S3 = "S3"
    '''s3.'''


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage",
    jsii_struct_bases=[],
    name_mapping={"bucket_name": "bucketName", "region": "region"},
)
class InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage:
    def __init__(self, *, bucket_name: builtins.str, region: builtins.str) -> None:
        '''
        :param bucket_name: S3 bucket location.
        :param region: S3 bucket region.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__16130bf13ecfc6c1ec84ad03cc26dd6e3b785ef70227f3da8d3a30d4bbb02683)
            check_type(argname="argument bucket_name", value=bucket_name, expected_type=type_hints["bucket_name"])
            check_type(argname="argument region", value=region, expected_type=type_hints["region"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "bucket_name": bucket_name,
            "region": region,
        }

    @builtins.property
    def bucket_name(self) -> builtins.str:
        '''S3 bucket location.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage#bucketName
        '''
        result = self._values.get("bucket_name")
        assert result is not None, "Required property 'bucket_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def region(self) -> builtins.str:
        '''S3 bucket region.

        :schema: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage#region
        '''
        result = self._values.get("region")
        assert result is not None, "Required property 'region' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecTags",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value"},
)
class InferenceEndpointConfigV1Alpha1SpecTags:
    def __init__(self, *, name: builtins.str, value: builtins.str) -> None:
        '''
        :param name: 
        :param value: 

        :schema: InferenceEndpointConfigV1Alpha1SpecTags
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__b15864b81b13057fa8e9540eb64b66d1442fbebe028ab4669aba6895878bb803)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
            "value": value,
        }

    @builtins.property
    def name(self) -> builtins.str:
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecTags#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> builtins.str:
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecTags#value
        '''
        result = self._values.get("value")
        assert result is not None, "Required property 'value' is missing"
        return typing.cast(builtins.str, result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecTags(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecTlsConfig",
    jsii_struct_bases=[],
    name_mapping={"tls_certificate_output_s3_uri": "tlsCertificateOutputS3Uri"},
)
class InferenceEndpointConfigV1Alpha1SpecTlsConfig:
    def __init__(
        self,
        *,
        tls_certificate_output_s3_uri: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Configurations for TLS.

        :param tls_certificate_output_s3_uri: 

        :schema: InferenceEndpointConfigV1Alpha1SpecTlsConfig
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__8fed22cbbcacaa1b15f0e939bc5b071caed4d715380144eeee2c15ee3d6f7c92)
            check_type(argname="argument tls_certificate_output_s3_uri", value=tls_certificate_output_s3_uri, expected_type=type_hints["tls_certificate_output_s3_uri"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if tls_certificate_output_s3_uri is not None:
            self._values["tls_certificate_output_s3_uri"] = tls_certificate_output_s3_uri

    @builtins.property
    def tls_certificate_output_s3_uri(self) -> typing.Optional[builtins.str]:
        '''
        :schema: InferenceEndpointConfigV1Alpha1SpecTlsConfig#tlsCertificateOutputS3Uri
        '''
        result = self._values.get("tls_certificate_output_s3_uri")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecTlsConfig(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorker",
    jsii_struct_bases=[],
    name_mapping={
        "image": "image",
        "model_invocation_port": "modelInvocationPort",
        "model_volume_mount": "modelVolumeMount",
        "resources": "resources",
        "environment_variables": "environmentVariables",
    },
)
class InferenceEndpointConfigV1Alpha1SpecWorker:
    def __init__(
        self,
        *,
        image: builtins.str,
        model_invocation_port: typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort", typing.Dict[builtins.str, typing.Any]],
        model_volume_mount: typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount", typing.Dict[builtins.str, typing.Any]],
        resources: typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerResources", typing.Dict[builtins.str, typing.Any]],
        environment_variables: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables", typing.Dict[builtins.str, typing.Any]]]] = None,
    ) -> None:
        '''Details of the worker.

        :param image: The name of the inference server image to be used.
        :param model_invocation_port: Defines the port at which the model server will listen to the invocation requests.
        :param model_volume_mount: Defines the volume where model will be loaded.
        :param resources: Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.
        :param environment_variables: List of environment variables to set in the container. Cannot be updated.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker
        '''
        if isinstance(model_invocation_port, dict):
            model_invocation_port = InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort(**model_invocation_port)
        if isinstance(model_volume_mount, dict):
            model_volume_mount = InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount(**model_volume_mount)
        if isinstance(resources, dict):
            resources = InferenceEndpointConfigV1Alpha1SpecWorkerResources(**resources)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6b5b2573758291d6eb8485ffab0a6bbd5d5f69f45958ef66829f2746fccaaca9)
            check_type(argname="argument image", value=image, expected_type=type_hints["image"])
            check_type(argname="argument model_invocation_port", value=model_invocation_port, expected_type=type_hints["model_invocation_port"])
            check_type(argname="argument model_volume_mount", value=model_volume_mount, expected_type=type_hints["model_volume_mount"])
            check_type(argname="argument resources", value=resources, expected_type=type_hints["resources"])
            check_type(argname="argument environment_variables", value=environment_variables, expected_type=type_hints["environment_variables"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "image": image,
            "model_invocation_port": model_invocation_port,
            "model_volume_mount": model_volume_mount,
            "resources": resources,
        }
        if environment_variables is not None:
            self._values["environment_variables"] = environment_variables

    @builtins.property
    def image(self) -> builtins.str:
        '''The name of the inference server image to be used.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker#image
        '''
        result = self._values.get("image")
        assert result is not None, "Required property 'image' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def model_invocation_port(
        self,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort":
        '''Defines the port at which the model server will listen to the invocation requests.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker#modelInvocationPort
        '''
        result = self._values.get("model_invocation_port")
        assert result is not None, "Required property 'model_invocation_port' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort", result)

    @builtins.property
    def model_volume_mount(
        self,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount":
        '''Defines the volume where model will be loaded.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker#modelVolumeMount
        '''
        result = self._values.get("model_volume_mount")
        assert result is not None, "Required property 'model_volume_mount' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount", result)

    @builtins.property
    def resources(self) -> "InferenceEndpointConfigV1Alpha1SpecWorkerResources":
        '''Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker#resources
        '''
        result = self._values.get("resources")
        assert result is not None, "Required property 'resources' is missing"
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerResources", result)

    @builtins.property
    def environment_variables(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables"]]:
        '''List of environment variables to set in the container.

        Cannot be updated.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorker#environmentVariables
        '''
        result = self._values.get("environment_variables")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables"]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorker(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "value": "value", "value_from": "valueFrom"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables:
    def __init__(
        self,
        *,
        name: builtins.str,
        value: typing.Optional[builtins.str] = None,
        value_from: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''EnvVar represents an environment variable present in a Container.

        :param name: Name of the environment variable. May consist of any printable ASCII characters except '='.
        :param value: Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to "". Default: .
        :param value_from: Source for the environment variable's value. Cannot be used if value is not empty.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables
        '''
        if isinstance(value_from, dict):
            value_from = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom(**value_from)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ea4110b5c645c8ac1b932cf27985932f80250c2653186b1018ac8a86b8a5fcc2)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
            check_type(argname="argument value_from", value=value_from, expected_type=type_hints["value_from"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if value is not None:
            self._values["value"] = value
        if value_from is not None:
            self._values["value_from"] = value_from

    @builtins.property
    def name(self) -> builtins.str:
        '''Name of the environment variable.

        May consist of any printable ASCII characters except '='.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def value(self) -> typing.Optional[builtins.str]:
        '''Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.

        If a variable cannot be resolved,
        the reference in the input string will be unchanged. Double $$ are reduced
        to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e.
        "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)".
        Escaped references will never be expanded, regardless of whether the variable
        exists or not.
        Defaults to "".

        :default: .

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables#value
        '''
        result = self._values.get("value")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def value_from(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom"]:
        '''Source for the environment variable's value.

        Cannot be used if value is not empty.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables#valueFrom
        '''
        result = self._values.get("value_from")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom",
    jsii_struct_bases=[],
    name_mapping={
        "config_map_key_ref": "configMapKeyRef",
        "field_ref": "fieldRef",
        "file_key_ref": "fileKeyRef",
        "resource_field_ref": "resourceFieldRef",
        "secret_key_ref": "secretKeyRef",
    },
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom:
    def __init__(
        self,
        *,
        config_map_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
        field_ref: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef", typing.Dict[builtins.str, typing.Any]]] = None,
        file_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
        resource_field_ref: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef", typing.Dict[builtins.str, typing.Any]]] = None,
        secret_key_ref: typing.Optional[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef", typing.Dict[builtins.str, typing.Any]]] = None,
    ) -> None:
        '''Source for the environment variable's value.

        Cannot be used if value is not empty.

        :param config_map_key_ref: Selects a key of a ConfigMap.
        :param field_ref: Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.
        :param file_key_ref: FileKeyRef selects a key of the env file. Requires the EnvFiles feature gate to be enabled.
        :param resource_field_ref: Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.
        :param secret_key_ref: Selects a key of a secret in the pod's namespace.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom
        '''
        if isinstance(config_map_key_ref, dict):
            config_map_key_ref = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef(**config_map_key_ref)
        if isinstance(field_ref, dict):
            field_ref = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef(**field_ref)
        if isinstance(file_key_ref, dict):
            file_key_ref = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef(**file_key_ref)
        if isinstance(resource_field_ref, dict):
            resource_field_ref = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef(**resource_field_ref)
        if isinstance(secret_key_ref, dict):
            secret_key_ref = InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef(**secret_key_ref)
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__70f12330a2848fc727b64172a7656e97c288f37662b5105f53f21b3c92406340)
            check_type(argname="argument config_map_key_ref", value=config_map_key_ref, expected_type=type_hints["config_map_key_ref"])
            check_type(argname="argument field_ref", value=field_ref, expected_type=type_hints["field_ref"])
            check_type(argname="argument file_key_ref", value=file_key_ref, expected_type=type_hints["file_key_ref"])
            check_type(argname="argument resource_field_ref", value=resource_field_ref, expected_type=type_hints["resource_field_ref"])
            check_type(argname="argument secret_key_ref", value=secret_key_ref, expected_type=type_hints["secret_key_ref"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if config_map_key_ref is not None:
            self._values["config_map_key_ref"] = config_map_key_ref
        if field_ref is not None:
            self._values["field_ref"] = field_ref
        if file_key_ref is not None:
            self._values["file_key_ref"] = file_key_ref
        if resource_field_ref is not None:
            self._values["resource_field_ref"] = resource_field_ref
        if secret_key_ref is not None:
            self._values["secret_key_ref"] = secret_key_ref

    @builtins.property
    def config_map_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef"]:
        '''Selects a key of a ConfigMap.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom#configMapKeyRef
        '''
        result = self._values.get("config_map_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef"], result)

    @builtins.property
    def field_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef"]:
        '''Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom#fieldRef
        '''
        result = self._values.get("field_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef"], result)

    @builtins.property
    def file_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef"]:
        '''FileKeyRef selects a key of the env file.

        Requires the EnvFiles feature gate to be enabled.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom#fileKeyRef
        '''
        result = self._values.get("file_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef"], result)

    @builtins.property
    def resource_field_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef"]:
        '''Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom#resourceFieldRef
        '''
        result = self._values.get("resource_field_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef"], result)

    @builtins.property
    def secret_key_ref(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef"]:
        '''Selects a key of a secret in the pod's namespace.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom#secretKeyRef
        '''
        result = self._values.get("secret_key_ref")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "name": "name", "optional": "optional"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        name: typing.Optional[builtins.str] = None,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Selects a key of a ConfigMap.

        :param key: The key to select.
        :param name: Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
        :param optional: Specify whether the ConfigMap or its key must be defined.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__98c27e379ba4ce2dce7faa54c061eed3084e51e162468509f3e75ab2c1d98058)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
        }
        if name is not None:
            self._values["name"] = name
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key to select.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name of the referent.

        This field is effectively required, but due to backwards compatibility is
        allowed to be empty. Instances of this type with an empty value here are
        almost certainly wrong.
        More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the ConfigMap or its key must be defined.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef",
    jsii_struct_bases=[],
    name_mapping={"field_path": "fieldPath", "api_version": "apiVersion"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef:
    def __init__(
        self,
        *,
        field_path: builtins.str,
        api_version: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Selects a field of the pod: supports metadata.name, metadata.namespace, ``metadata.labels['<KEY>']``, ``metadata.annotations['<KEY>']``, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP, status.podIPs.

        :param field_path: Path of the field to select in the specified API version.
        :param api_version: Version of the schema the FieldPath is written in terms of, defaults to "v1".

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__9ec7fb3f157191c8fe9d8b4102ea7939ee9c386c6c22dba7635aecd3630bd424)
            check_type(argname="argument field_path", value=field_path, expected_type=type_hints["field_path"])
            check_type(argname="argument api_version", value=api_version, expected_type=type_hints["api_version"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "field_path": field_path,
        }
        if api_version is not None:
            self._values["api_version"] = api_version

    @builtins.property
    def field_path(self) -> builtins.str:
        '''Path of the field to select in the specified API version.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef#fieldPath
        '''
        result = self._values.get("field_path")
        assert result is not None, "Required property 'field_path' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def api_version(self) -> typing.Optional[builtins.str]:
        '''Version of the schema the FieldPath is written in terms of, defaults to "v1".

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef#apiVersion
        '''
        result = self._values.get("api_version")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef",
    jsii_struct_bases=[],
    name_mapping={
        "key": "key",
        "path": "path",
        "volume_name": "volumeName",
        "optional": "optional",
    },
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        path: builtins.str,
        volume_name: builtins.str,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''FileKeyRef selects a key of the env file.

        Requires the EnvFiles feature gate to be enabled.

        :param key: The key within the env file. An invalid key will prevent the pod from starting. The keys defined within a source may consist of any printable ASCII characters except '='. During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.
        :param path: The path within the volume from which to select the file. Must be relative and may not contain the '..' path or start with '..'.
        :param volume_name: The name of the volume mount containing the env file.
        :param optional: Specify whether the file or its key must be defined. If the file or key does not exist, then the env var is not published. If optional is set to true and the specified key does not exist, the environment variable will not be set in the Pod's containers. If optional is set to false and the specified key does not exist, an error will be returned during Pod creation.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__4d1fc46b053da42fb4788e9a46f496e7c1672a71b1ac3e6d6c8526af5d6fc8e2)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument path", value=path, expected_type=type_hints["path"])
            check_type(argname="argument volume_name", value=volume_name, expected_type=type_hints["volume_name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
            "path": path,
            "volume_name": volume_name,
        }
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key within the env file.

        An invalid key will prevent the pod from starting.
        The keys defined within a source may consist of any printable ASCII characters except '='.
        During Alpha stage of the EnvFiles feature gate, the key size is limited to 128 characters.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def path(self) -> builtins.str:
        '''The path within the volume from which to select the file.

        Must be relative and may not contain the '..' path or start with '..'.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef#path
        '''
        result = self._values.get("path")
        assert result is not None, "Required property 'path' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def volume_name(self) -> builtins.str:
        '''The name of the volume mount containing the env file.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef#volumeName
        '''
        result = self._values.get("volume_name")
        assert result is not None, "Required property 'volume_name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the file or its key must be defined.

        If the file or key
        does not exist, then the env var is not published.
        If optional is set to true and the specified key does not exist,
        the environment variable will not be set in the Pod's containers.

        If optional is set to false and the specified key does not exist,
        an error will be returned during Pod creation.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef",
    jsii_struct_bases=[],
    name_mapping={
        "resource": "resource",
        "container_name": "containerName",
        "divisor": "divisor",
    },
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef:
    def __init__(
        self,
        *,
        resource: builtins.str,
        container_name: typing.Optional[builtins.str] = None,
        divisor: typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"] = None,
    ) -> None:
        '''Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory and requests.ephemeral-storage) are currently supported.

        :param resource: Required: resource to select.
        :param container_name: Container name: required for volumes, optional for env vars.
        :param divisor: Specifies the output format of the exposed resources, defaults to "1".

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__35dc7ec854953aab3ecd1a2019b286d71b462a67e6f9d4fc17bd2e194ba58de4)
            check_type(argname="argument resource", value=resource, expected_type=type_hints["resource"])
            check_type(argname="argument container_name", value=container_name, expected_type=type_hints["container_name"])
            check_type(argname="argument divisor", value=divisor, expected_type=type_hints["divisor"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "resource": resource,
        }
        if container_name is not None:
            self._values["container_name"] = container_name
        if divisor is not None:
            self._values["divisor"] = divisor

    @builtins.property
    def resource(self) -> builtins.str:
        '''Required: resource to select.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef#resource
        '''
        result = self._values.get("resource")
        assert result is not None, "Required property 'resource' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def container_name(self) -> typing.Optional[builtins.str]:
        '''Container name: required for volumes, optional for env vars.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef#containerName
        '''
        result = self._values.get("container_name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def divisor(
        self,
    ) -> typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"]:
        '''Specifies the output format of the exposed resources, defaults to "1".

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef#divisor
        '''
        result = self._values.get("divisor")
        return typing.cast(typing.Optional["InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor"], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor",
):
    '''Specifies the output format of the exposed resources, defaults to "1".

    :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__53b8814c8d008e00375c50d7c7262fb53543a9c7e6ef48fd95bd24a1898d136b)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__07fe800c95ce12c7bcba75b416e7ad6eb3ae0fc22a80ea4e842c8157fd1dc5b3)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef",
    jsii_struct_bases=[],
    name_mapping={"key": "key", "name": "name", "optional": "optional"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef:
    def __init__(
        self,
        *,
        key: builtins.str,
        name: typing.Optional[builtins.str] = None,
        optional: typing.Optional[builtins.bool] = None,
    ) -> None:
        '''Selects a key of a secret in the pod's namespace.

        :param key: The key of the secret to select from. Must be a valid secret key.
        :param name: Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
        :param optional: Specify whether the Secret or its key must be defined.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__e1776f0b66fba17434fd9097188c012cd06c8e72b036ff31e2886b6b65cd6435)
            check_type(argname="argument key", value=key, expected_type=type_hints["key"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument optional", value=optional, expected_type=type_hints["optional"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "key": key,
        }
        if name is not None:
            self._values["name"] = name
        if optional is not None:
            self._values["optional"] = optional

    @builtins.property
    def key(self) -> builtins.str:
        '''The key of the secret to select from.

        Must be a valid secret key.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef#key
        '''
        result = self._values.get("key")
        assert result is not None, "Required property 'key' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''Name of the referent.

        This field is effectively required, but due to backwards compatibility is
        allowed to be empty. Instances of this type with an empty value here are
        almost certainly wrong.
        More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    @builtins.property
    def optional(self) -> typing.Optional[builtins.bool]:
        '''Specify whether the Secret or its key must be defined.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef#optional
        '''
        result = self._values.get("optional")
        return typing.cast(typing.Optional[builtins.bool], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort",
    jsii_struct_bases=[],
    name_mapping={"container_port": "containerPort", "name": "name"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort:
    def __init__(
        self,
        *,
        container_port: jsii.Number,
        name: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Defines the port at which the model server will listen to the invocation requests.

        :param container_port: Port on which the model server will be listening.
        :param name: This is name for the port within the deployed container where the model will listen. This will be referred to by the Load Balancer Service. This must be an IANA_SVC_NAME (for eg. http) and unique within the pod.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__6885d84fea510019b1677f24c9691ea0f1948e0d7b33322cc59f3edfba84b960)
            check_type(argname="argument container_port", value=container_port, expected_type=type_hints["container_port"])
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "container_port": container_port,
        }
        if name is not None:
            self._values["name"] = name

    @builtins.property
    def container_port(self) -> jsii.Number:
        '''Port on which the model server will be listening.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort#containerPort
        '''
        result = self._values.get("container_port")
        assert result is not None, "Required property 'container_port' is missing"
        return typing.cast(jsii.Number, result)

    @builtins.property
    def name(self) -> typing.Optional[builtins.str]:
        '''This is name for the port within the deployed container where the model will listen.

        This will be referred to by the Load Balancer Service.
        This must be an IANA_SVC_NAME (for eg. http) and unique within the pod.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort#name
        '''
        result = self._values.get("name")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "mount_path": "mountPath"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount:
    def __init__(
        self,
        *,
        name: builtins.str,
        mount_path: typing.Optional[builtins.str] = None,
    ) -> None:
        '''Defines the volume where model will be loaded.

        :param name: Name of the model volume mount.
        :param mount_path: This is the path within the container where the model data will be available for the inference server to load it to GPU,CPU or other device.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__01203305bcc8f841635ce89f44ad43a134eb5375accea3c6a80d271e48ea89f6)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument mount_path", value=mount_path, expected_type=type_hints["mount_path"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if mount_path is not None:
            self._values["mount_path"] = mount_path

    @builtins.property
    def name(self) -> builtins.str:
        '''Name of the model volume mount.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def mount_path(self) -> typing.Optional[builtins.str]:
        '''This is the path within the container where the model data will be available for the inference server to load it to GPU,CPU or other device.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount#mountPath
        '''
        result = self._values.get("mount_path")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerResources",
    jsii_struct_bases=[],
    name_mapping={"claims": "claims", "limits": "limits", "requests": "requests"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerResources:
    def __init__(
        self,
        *,
        claims: typing.Optional[typing.Sequence[typing.Union["InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims", typing.Dict[builtins.str, typing.Any]]]] = None,
        limits: typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits"]] = None,
        requests: typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests"]] = None,
    ) -> None:
        '''Defines the Resources in terms of CPU, GPU, Memory needed for the model to be deployed.

        :param claims: Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container. This field depends on the DynamicResourceAllocation feature gate. This field is immutable. It can only be set for containers.
        :param limits: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/
        :param requests: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResources
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__dedc5771510a6487022c4c69dd1d45bd20d2c4b97a69245ff36c9bfdf7a834d6)
            check_type(argname="argument claims", value=claims, expected_type=type_hints["claims"])
            check_type(argname="argument limits", value=limits, expected_type=type_hints["limits"])
            check_type(argname="argument requests", value=requests, expected_type=type_hints["requests"])
        self._values: typing.Dict[builtins.str, typing.Any] = {}
        if claims is not None:
            self._values["claims"] = claims
        if limits is not None:
            self._values["limits"] = limits
        if requests is not None:
            self._values["requests"] = requests

    @builtins.property
    def claims(
        self,
    ) -> typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims"]]:
        '''Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.

        This field depends on the
        DynamicResourceAllocation feature gate.

        This field is immutable. It can only be set for containers.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResources#claims
        '''
        result = self._values.get("claims")
        return typing.cast(typing.Optional[typing.List["InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims"]], result)

    @builtins.property
    def limits(
        self,
    ) -> typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits"]]:
        '''Limits describes the maximum amount of compute resources allowed.

        More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResources#limits
        '''
        result = self._values.get("limits")
        return typing.cast(typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits"]], result)

    @builtins.property
    def requests(
        self,
    ) -> typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests"]]:
        '''Requests describes the minimum amount of compute resources required.

        If Requests is omitted for a container, it defaults to Limits if that is explicitly specified,
        otherwise to an implementation-defined value. Requests cannot exceed Limits.
        More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResources#requests
        '''
        result = self._values.get("requests")
        return typing.cast(typing.Optional[typing.Mapping[builtins.str, "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests"]], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerResources(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


@jsii.data_type(
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims",
    jsii_struct_bases=[],
    name_mapping={"name": "name", "request": "request"},
)
class InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims:
    def __init__(
        self,
        *,
        name: builtins.str,
        request: typing.Optional[builtins.str] = None,
    ) -> None:
        '''ResourceClaim references one entry in PodSpec.ResourceClaims.

        :param name: Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.
        :param request: Request is the name chosen for a request in the referenced claim. If empty, everything from the claim is made available, otherwise only the result of this request.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__5cfa2d1bf0f74e09180a7e03981692020270cd4f0e963ffa1b5836e77bf70492)
            check_type(argname="argument name", value=name, expected_type=type_hints["name"])
            check_type(argname="argument request", value=request, expected_type=type_hints["request"])
        self._values: typing.Dict[builtins.str, typing.Any] = {
            "name": name,
        }
        if request is not None:
            self._values["request"] = request

    @builtins.property
    def name(self) -> builtins.str:
        '''Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used. It makes that resource available inside a container.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims#name
        '''
        result = self._values.get("name")
        assert result is not None, "Required property 'name' is missing"
        return typing.cast(builtins.str, result)

    @builtins.property
    def request(self) -> typing.Optional[builtins.str]:
        '''Request is the name chosen for a request in the referenced claim.

        If empty, everything from the claim is made available, otherwise
        only the result of this request.

        :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims#request
        '''
        result = self._values.get("request")
        return typing.cast(typing.Optional[builtins.str], result)

    def __eq__(self, rhs: typing.Any) -> builtins.bool:
        return isinstance(rhs, self.__class__) and rhs._values == self._values

    def __ne__(self, rhs: typing.Any) -> builtins.bool:
        return not (rhs == self)

    def __repr__(self) -> str:
        return "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims(%s)" % ", ".join(
            k + "=" + repr(v) for k, v in self._values.items()
        )


class InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits",
):
    '''
    :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__ac408455944d405b21839ad8c33c59abd5e2f5b339d076b7a58a33fe393cb379)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__1c0d151917d2d21ee4daaa5b2d358b392fdc6a6a6104f6b233fbbaef94537bbc)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


class InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests(
    metaclass=jsii.JSIIMeta,
    jsii_type="comamazonawssagemakerinference.InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests",
):
    '''
    :schema: InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests
    '''

    @jsii.member(jsii_name="fromNumber")
    @builtins.classmethod
    def from_number(
        cls,
        value: jsii.Number,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__21f5ca265b5b90e7e85942398a7c0459119cad3e9cd6e8b4838156ba819c4fdd)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests", jsii.sinvoke(cls, "fromNumber", [value]))

    @jsii.member(jsii_name="fromString")
    @builtins.classmethod
    def from_string(
        cls,
        value: builtins.str,
    ) -> "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests":
        '''
        :param value: -
        '''
        if __debug__:
            type_hints = cached_type_hints(_typecheckingstub__09dc7786b983e4793543f26f5813f9172ffbe5aa41ed9cc27161c923ad35bad9)
            check_type(argname="argument value", value=value, expected_type=type_hints["value"])
        return typing.cast("InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests", jsii.sinvoke(cls, "fromString", [value]))

    @builtins.property
    @jsii.member(jsii_name="value")
    def value(self) -> typing.Union[builtins.str, jsii.Number]:
        return typing.cast(typing.Union[builtins.str, jsii.Number], jsii.get(self, "value"))


__all__ = [
    "InferenceEndpointConfig",
    "InferenceEndpointConfigProps",
    "InferenceEndpointConfigSpec",
    "InferenceEndpointConfigSpecAutoScalingSpec",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType",
    "InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType",
    "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger",
    "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList",
    "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType",
    "InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType",
    "InferenceEndpointConfigSpecIntelligentRoutingSpec",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType",
    "InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy",
    "InferenceEndpointConfigSpecKvCacheSpec",
    "InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec",
    "InferenceEndpointConfigSpecLoadBalancer",
    "InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm",
    "InferenceEndpointConfigSpecMetrics",
    "InferenceEndpointConfigSpecMetricsModelMetrics",
    "InferenceEndpointConfigSpecModelSourceConfig",
    "InferenceEndpointConfigSpecModelSourceConfigFsxStorage",
    "InferenceEndpointConfigSpecModelSourceConfigModelSourceType",
    "InferenceEndpointConfigSpecModelSourceConfigS3Storage",
    "InferenceEndpointConfigSpecNodeAffinity",
    "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution",
    "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference",
    "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions",
    "InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields",
    "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution",
    "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms",
    "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions",
    "InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields",
    "InferenceEndpointConfigSpecTags",
    "InferenceEndpointConfigSpecTlsConfig",
    "InferenceEndpointConfigSpecWorker",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariables",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor",
    "InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef",
    "InferenceEndpointConfigSpecWorkerModelInvocationPort",
    "InferenceEndpointConfigSpecWorkerModelVolumeMount",
    "InferenceEndpointConfigSpecWorkerProbes",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbe",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket",
    "InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbe",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket",
    "InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbe",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeExec",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket",
    "InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort",
    "InferenceEndpointConfigSpecWorkerResources",
    "InferenceEndpointConfigSpecWorkerResourcesClaims",
    "InferenceEndpointConfigSpecWorkerResourcesLimits",
    "InferenceEndpointConfigSpecWorkerResourcesRequests",
    "InferenceEndpointConfigV1Alpha1",
    "InferenceEndpointConfigV1Alpha1Props",
    "InferenceEndpointConfigV1Alpha1Spec",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger",
    "InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType",
    "InferenceEndpointConfigV1Alpha1SpecLoadBalancer",
    "InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm",
    "InferenceEndpointConfigV1Alpha1SpecMetrics",
    "InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics",
    "InferenceEndpointConfigV1Alpha1SpecModelSourceConfig",
    "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage",
    "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType",
    "InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage",
    "InferenceEndpointConfigV1Alpha1SpecTags",
    "InferenceEndpointConfigV1Alpha1SpecTlsConfig",
    "InferenceEndpointConfigV1Alpha1SpecWorker",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor",
    "InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef",
    "InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort",
    "InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount",
    "InferenceEndpointConfigV1Alpha1SpecWorkerResources",
    "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims",
    "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits",
    "InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests",
]

publication.publish()

def _typecheckingstub__daa337cd14da4abff9ddae38be1a1cb40467b1433a1a123358738fbf473d450d(
    scope: _constructs_77d1e7e8.Construct,
    id: builtins.str,
    *,
    metadata: typing.Optional[typing.Union[_cdk8s_d3d9af27.ApiObjectMetadata, typing.Dict[builtins.str, typing.Any]]] = None,
    spec: typing.Optional[typing.Union[InferenceEndpointConfigSpec, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__844522c3b3bc9c5de96fb93fbeeef6148eae441e6cbcb75c0c94249ca75af42c(
    *,
    metadata: typing.Optional[typing.Union[_cdk8s_d3d9af27.ApiObjectMetadata, typing.Dict[builtins.str, typing.Any]]] = None,
    spec: typing.Optional[typing.Union[InferenceEndpointConfigSpec, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ad600e1e53867817782818831d56c2b20332d59c8660e9e5c7990e408cec5cb1(
    *,
    model_name: builtins.str,
    model_source_config: typing.Union[InferenceEndpointConfigSpecModelSourceConfig, typing.Dict[builtins.str, typing.Any]],
    worker: typing.Union[InferenceEndpointConfigSpecWorker, typing.Dict[builtins.str, typing.Any]],
    auto_scaling_spec: typing.Optional[typing.Union[InferenceEndpointConfigSpecAutoScalingSpec, typing.Dict[builtins.str, typing.Any]]] = None,
    endpoint_name: typing.Optional[builtins.str] = None,
    initial_replica_count: typing.Optional[jsii.Number] = None,
    instance_type: typing.Optional[builtins.str] = None,
    instance_types: typing.Optional[typing.Sequence[builtins.str]] = None,
    intelligent_routing_spec: typing.Optional[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpec, typing.Dict[builtins.str, typing.Any]]] = None,
    invocation_endpoint: typing.Optional[builtins.str] = None,
    kv_cache_spec: typing.Optional[typing.Union[InferenceEndpointConfigSpecKvCacheSpec, typing.Dict[builtins.str, typing.Any]]] = None,
    load_balancer: typing.Optional[typing.Union[InferenceEndpointConfigSpecLoadBalancer, typing.Dict[builtins.str, typing.Any]]] = None,
    max_deploy_time_in_seconds: typing.Optional[jsii.Number] = None,
    metrics: typing.Optional[typing.Union[InferenceEndpointConfigSpecMetrics, typing.Dict[builtins.str, typing.Any]]] = None,
    model_version: typing.Optional[builtins.str] = None,
    node_affinity: typing.Optional[typing.Union[InferenceEndpointConfigSpecNodeAffinity, typing.Dict[builtins.str, typing.Any]]] = None,
    replicas: typing.Optional[jsii.Number] = None,
    tags: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecTags, typing.Dict[builtins.str, typing.Any]]]] = None,
    tls_config: typing.Optional[typing.Union[InferenceEndpointConfigSpecTlsConfig, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6550ec00631a82b4095124caab7ae2e99c78e3946f141a32d60b33b955e5abd5(
    *,
    cloud_watch_trigger: typing.Optional[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    cloud_watch_trigger_list: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerList, typing.Dict[builtins.str, typing.Any]]]] = None,
    cooldown_period: typing.Optional[jsii.Number] = None,
    initial_cooldown_period: typing.Optional[jsii.Number] = None,
    max_replica_count: typing.Optional[jsii.Number] = None,
    min_replica_count: typing.Optional[jsii.Number] = None,
    polling_interval: typing.Optional[jsii.Number] = None,
    prometheus_trigger: typing.Optional[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecPrometheusTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    prometheus_trigger_list: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerList, typing.Dict[builtins.str, typing.Any]]]] = None,
    scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
    scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__58a6f5c72de8cd9f05473073e322bcdfe75e8f46c7ce5821733a8a1dbfb1cc62(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    dimensions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerDimensions, typing.Dict[builtins.str, typing.Any]]]] = None,
    metric_collection_period: typing.Optional[jsii.Number] = None,
    metric_collection_start_time: typing.Optional[jsii.Number] = None,
    metric_name: typing.Optional[builtins.str] = None,
    metric_stat: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerMetricType] = None,
    min_value: typing.Optional[jsii.Number] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__955b2681cc08f4ebf8dd7cc9b376fdd334538b8a6a135e8dedbed86d2bd03310(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__306fe653ffa40a9c2f13abc5f023597b70fd40eae0f2d184d7722b72497cc121(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    dimensions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListDimensions, typing.Dict[builtins.str, typing.Any]]]] = None,
    metric_collection_period: typing.Optional[jsii.Number] = None,
    metric_collection_start_time: typing.Optional[jsii.Number] = None,
    metric_name: typing.Optional[builtins.str] = None,
    metric_stat: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecAutoScalingSpecCloudWatchTriggerListMetricType] = None,
    min_value: typing.Optional[jsii.Number] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__56a81ce11c05ad432cb5a3056ef7ed262a3c18eb69d20d19a61506820f088e8c(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ed9409eaa9f81241846db360ec70d8e6c55985539d2da037c929f0d45e63f848(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    custom_headers: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerMetricType] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    query: typing.Optional[builtins.str] = None,
    server_address: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__4f7911a39653653054b378bf86daf676c4be6927ac6394898ca884887576bbf7(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    custom_headers: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecAutoScalingSpecPrometheusTriggerListMetricType] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    query: typing.Optional[builtins.str] = None,
    server_address: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__12739a27bf6831df001a53533b2884bad0a7a779fc8f84393bb822f7e61a923d(
    *,
    auto_scaling_spec: typing.Optional[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpec, typing.Dict[builtins.str, typing.Any]]] = None,
    enabled: typing.Optional[builtins.bool] = None,
    routing_strategy: typing.Optional[InferenceEndpointConfigSpecIntelligentRoutingSpecRoutingStrategy] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__2f1718596ea08b526776c480d75fd17f5e158e857e979f3de79042b4aa87daf7(
    *,
    cloud_watch_trigger: typing.Optional[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    cloud_watch_trigger_list: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerList, typing.Dict[builtins.str, typing.Any]]]] = None,
    cooldown_period: typing.Optional[jsii.Number] = None,
    initial_cooldown_period: typing.Optional[jsii.Number] = None,
    max_replica_count: typing.Optional[jsii.Number] = None,
    min_replica_count: typing.Optional[jsii.Number] = None,
    polling_interval: typing.Optional[jsii.Number] = None,
    prometheus_trigger: typing.Optional[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    prometheus_trigger_list: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerList, typing.Dict[builtins.str, typing.Any]]]] = None,
    scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
    scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ba7bd88ede39a86e587edc719f352e037d6e18201a3ff1c6550f1c4759e0983d(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    dimensions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerDimensions, typing.Dict[builtins.str, typing.Any]]]] = None,
    metric_collection_period: typing.Optional[jsii.Number] = None,
    metric_collection_start_time: typing.Optional[jsii.Number] = None,
    metric_name: typing.Optional[builtins.str] = None,
    metric_stat: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerMetricType] = None,
    min_value: typing.Optional[jsii.Number] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ab9c87f82d37ceca1319330146a271a95d5673a1a2fad294e67fab6ad37fddc9(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__4458a6e38d259544b1a445f21c1426bfc70a46edee95ba3b843179296448e4b4(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    dimensions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListDimensions, typing.Dict[builtins.str, typing.Any]]]] = None,
    metric_collection_period: typing.Optional[jsii.Number] = None,
    metric_collection_start_time: typing.Optional[jsii.Number] = None,
    metric_name: typing.Optional[builtins.str] = None,
    metric_stat: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecCloudWatchTriggerListMetricType] = None,
    min_value: typing.Optional[jsii.Number] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ec306a9bab10340cc74f7473e00c3d81d961514ad27653646d30664e5036994f(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__90768707f8b5efc2923b8d1ce1c094f4a1e310740fff03a42d28881a228c29de(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    custom_headers: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerMetricType] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    query: typing.Optional[builtins.str] = None,
    server_address: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__0f470996e564eb12f9959e56fc0190114b905ec6e7476f3642e246f8154f5fcc(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    custom_headers: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigSpecIntelligentRoutingSpecAutoScalingSpecPrometheusTriggerListMetricType] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    query: typing.Optional[builtins.str] = None,
    server_address: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__668b7fa7a6aeb5315228c392ebb0bdbf0c113ea3cd0033cdc4bc4fe23093786f(
    *,
    cache_config_file: typing.Optional[builtins.str] = None,
    enable_l1_cache: typing.Optional[builtins.bool] = None,
    enable_l2_cache: typing.Optional[builtins.bool] = None,
    l2_cache_spec: typing.Optional[typing.Union[InferenceEndpointConfigSpecKvCacheSpecL2CacheSpec, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__615a8205e8b533b7321e38e1dbcbfa876246ea3c745592ebd0173d0b4d6571df(
    *,
    l2_cache_backend: typing.Optional[builtins.str] = None,
    l2_cache_local_url: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__73e02fcd2da41d268b7423b240be78d78e15a7e44b2173769504c70b1652c192(
    *,
    health_check_path: typing.Optional[builtins.str] = None,
    routing_algorithm: typing.Optional[InferenceEndpointConfigSpecLoadBalancerRoutingAlgorithm] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__21e13cff0488dcb6ce5ea9dfb7ed3bd38ff4e62ab12b78b826fd825e92e89153(
    *,
    enabled: typing.Optional[builtins.bool] = None,
    metrics_scrape_interval_seconds: typing.Optional[jsii.Number] = None,
    model_metrics: typing.Optional[typing.Union[InferenceEndpointConfigSpecMetricsModelMetrics, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__553b619834af2417868be8190356fae283d31165e23cc70e098a560c8499bdc3(
    *,
    path: typing.Optional[builtins.str] = None,
    port: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__857c0dacdd6675be5f5ba9b3d55bcc1f77dee90097bcb956d5541ee449eb6a5b(
    *,
    model_source_type: InferenceEndpointConfigSpecModelSourceConfigModelSourceType,
    fsx_storage: typing.Optional[typing.Union[InferenceEndpointConfigSpecModelSourceConfigFsxStorage, typing.Dict[builtins.str, typing.Any]]] = None,
    model_location: typing.Optional[builtins.str] = None,
    prefetch_enabled: typing.Optional[builtins.bool] = None,
    s3_storage: typing.Optional[typing.Union[InferenceEndpointConfigSpecModelSourceConfigS3Storage, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__09f1d072609dc5db068ca656175df9f2c621eb7288205b85484268dc4528bd4d(
    *,
    file_system_id: builtins.str,
    dns_name: typing.Optional[builtins.str] = None,
    mount_name: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__3877a71831df35bb2ff32fb18c68b5999c96939884047fb5b3eda2101bea18e4(
    *,
    bucket_name: builtins.str,
    region: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__40b88ebdc0af070e29c110fac62025f19acfd24024dc75fb23b5f0aa0e6f6a97(
    *,
    preferred_during_scheduling_ignored_during_execution: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecution, typing.Dict[builtins.str, typing.Any]]]] = None,
    required_during_scheduling_ignored_during_execution: typing.Optional[typing.Union[InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecution, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__2c45a05c84e5d06afe030c27a4862e939d271c159d9f2929979ef314a1230331(
    *,
    preference: typing.Union[InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreference, typing.Dict[builtins.str, typing.Any]],
    weight: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__5027e652ed37272034a91f38de1dcb9716139f24e851aad91a88ac6ff93c5536(
    *,
    match_expressions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchExpressions, typing.Dict[builtins.str, typing.Any]]]] = None,
    match_fields: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityPreferredDuringSchedulingIgnoredDuringExecutionPreferenceMatchFields, typing.Dict[builtins.str, typing.Any]]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__7e2a54f8cc35d6b4d50cfbbb3ff30df2496a2fe2d679b11b70205a4fe6214368(
    *,
    key: builtins.str,
    operator: builtins.str,
    values: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__4222c40a3cc95a4cca013ccbacc7eb1a67440275a5af030c8b77294e5bbfb637(
    *,
    key: builtins.str,
    operator: builtins.str,
    values: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__13c162b49736b654470e49df554a447379959795a552d95bd619f832fab62577(
    *,
    node_selector_terms: typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTerms, typing.Dict[builtins.str, typing.Any]]],
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__e6f1449b579191b5087a1eadf6c62aba20188d6175aa0f7e6111a537e4c903f7(
    *,
    match_expressions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchExpressions, typing.Dict[builtins.str, typing.Any]]]] = None,
    match_fields: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecNodeAffinityRequiredDuringSchedulingIgnoredDuringExecutionNodeSelectorTermsMatchFields, typing.Dict[builtins.str, typing.Any]]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d0bf46e62277b9b1f65fc36b55de5aa83810708846fb92104749ec57b25b1455(
    *,
    key: builtins.str,
    operator: builtins.str,
    values: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ed62b67c0d6e1a33701be120e6c726c50d16a8f99b8c232766106205678a02a6(
    *,
    key: builtins.str,
    operator: builtins.str,
    values: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__fc116929cc572b2cc2f8519fb32abd81a8b2975c02b5f7a99a6e95a52ea63b13(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ba837b9e6d8747c8f479f8ba6f0b9f4c68de8c7a7359af024a26f8449de5cb40(
    *,
    tls_certificate_output_s3_uri: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__254932ed78004b8048189df136fef209b67e7568c75782bac30d55ef7199ac6c(
    *,
    image: builtins.str,
    model_invocation_port: typing.Union[InferenceEndpointConfigSpecWorkerModelInvocationPort, typing.Dict[builtins.str, typing.Any]],
    model_volume_mount: typing.Union[InferenceEndpointConfigSpecWorkerModelVolumeMount, typing.Dict[builtins.str, typing.Any]],
    resources: typing.Union[InferenceEndpointConfigSpecWorkerResources, typing.Dict[builtins.str, typing.Any]],
    args: typing.Optional[typing.Sequence[builtins.str]] = None,
    command: typing.Optional[typing.Sequence[builtins.str]] = None,
    environment_variables: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariables, typing.Dict[builtins.str, typing.Any]]]] = None,
    probes: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbes, typing.Dict[builtins.str, typing.Any]]] = None,
    working_dir: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__00ee261aec79ad9dc2f4a15829058727a4220fe79fd79850020cc6bbf93446b9(
    *,
    name: builtins.str,
    value: typing.Optional[builtins.str] = None,
    value_from: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFrom, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6dc573571d44fc425c2de5141adcf9a4c6ee40a478fb998f9918ee196acec1ab(
    *,
    config_map_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
    field_ref: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFieldRef, typing.Dict[builtins.str, typing.Any]]] = None,
    file_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromFileKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
    resource_field_ref: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRef, typing.Dict[builtins.str, typing.Any]]] = None,
    secret_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromSecretKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d360cc0468c479b7ba89c973f6c89b59c346c8d36c7627a0cc613f744c1e142c(
    *,
    key: builtins.str,
    name: typing.Optional[builtins.str] = None,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__a0b538021926680a2b6697a39d3dbd5adc629a8a333742b9dd2806d022513888(
    *,
    field_path: builtins.str,
    api_version: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__a2bac633a1dd362d486fcaf941877cb6a5303cc5429d65c42e1f66ecaa76ffee(
    *,
    key: builtins.str,
    path: builtins.str,
    volume_name: builtins.str,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__dc1ab467ba7f09da00765bf8948a739ed499735e84a660aedb2d5e2e73f9dc86(
    *,
    resource: builtins.str,
    container_name: typing.Optional[builtins.str] = None,
    divisor: typing.Optional[InferenceEndpointConfigSpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__1a4608d1508d97945ca93d4643ade1b1a3fc5524a0963ac1c1aee9c574cd9e83(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ebd04df4c160c982debcc728181bef01b3926d86f3efb85f7301b4581f27cc49(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__0e511d755d1a6cd04096fd45070dc2ffd25971f5d37da70e2f613db1e2edcac6(
    *,
    key: builtins.str,
    name: typing.Optional[builtins.str] = None,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__803de6ff64163a0146b8a190a78897e3af5dd14d7559cb95b3c833ed3ab6fd73(
    *,
    container_port: jsii.Number,
    name: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__b0ba08282941e8a6af7671747251afdeee4b6e2c87598b9bd34eb6468df62f60(
    *,
    name: builtins.str,
    mount_path: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__e224a8d16619e476b6f8e7e300a2beb580cfa7aa811039e0300e704f245cf118(
    *,
    liveness_probe: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbe, typing.Dict[builtins.str, typing.Any]]] = None,
    readiness_probe: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbe, typing.Dict[builtins.str, typing.Any]]] = None,
    startup_probe: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbe, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__9d88e404272069b866e7c49df9a7a29a23e3ffb58d65af6149837381f044f625(
    *,
    exec: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbeExec, typing.Dict[builtins.str, typing.Any]]] = None,
    failure_threshold: typing.Optional[jsii.Number] = None,
    grpc: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbeGrpc, typing.Dict[builtins.str, typing.Any]]] = None,
    http_get: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGet, typing.Dict[builtins.str, typing.Any]]] = None,
    initial_delay_seconds: typing.Optional[jsii.Number] = None,
    period_seconds: typing.Optional[jsii.Number] = None,
    success_threshold: typing.Optional[jsii.Number] = None,
    tcp_socket: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocket, typing.Dict[builtins.str, typing.Any]]] = None,
    termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
    timeout_seconds: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__7ad42b9359de0a5e3df8c74c474849641902ade1fdf3e1af54c4ee35f4f8414f(
    *,
    command: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__326b0bafbbd69940bdf1c7c1b4100b01726882abb2397134e944c83a1a32df44(
    *,
    port: jsii.Number,
    service: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__1ce7ff6e5948f8c9831a98bcf96ddcbb4b28027c6c4fec302f0f648ad9675255(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetPort,
    host: typing.Optional[builtins.str] = None,
    http_headers: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecWorkerProbesLivenessProbeHttpGetHttpHeaders, typing.Dict[builtins.str, typing.Any]]]] = None,
    path: typing.Optional[builtins.str] = None,
    scheme: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ec84c1747400921fe853b6aae1e65ad7354b19d77bccead034979a0cf0c03d28(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__322620a9968c027af7105208ede132ffa95c265fbcb943c98dc98a911cc02a07(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__8128ffd6a65c54a8549701aaebb8f9118453253dfa21dfe405bc21b4d0788f1f(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__b8b75fce19573de809a85bcc373b3562fd107c0839b4430f357314f65e6cb728(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesLivenessProbeTcpSocketPort,
    host: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6d5ed511782a640bd76565ebc8b25f43871e7488142d76db24ff6bd861206040(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__1eb879a6a3a224e6d57469602c947a1da83704004411b854c1674edea15aeb39(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__2b0f9c5d827c62006551846886c12b60e03494d93835de0742c112a187d4e71b(
    *,
    exec: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbeExec, typing.Dict[builtins.str, typing.Any]]] = None,
    failure_threshold: typing.Optional[jsii.Number] = None,
    grpc: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbeGrpc, typing.Dict[builtins.str, typing.Any]]] = None,
    http_get: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGet, typing.Dict[builtins.str, typing.Any]]] = None,
    initial_delay_seconds: typing.Optional[jsii.Number] = None,
    period_seconds: typing.Optional[jsii.Number] = None,
    success_threshold: typing.Optional[jsii.Number] = None,
    tcp_socket: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocket, typing.Dict[builtins.str, typing.Any]]] = None,
    termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
    timeout_seconds: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__169c275fe3558c7ec34b12bf71e258cdc0e26824fe77808f58cea2b87a454d16(
    *,
    command: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__77ca9fa512888ef86e7eed965e0559536a39b5a0e065fa586508cfba63f6dd0e(
    *,
    port: jsii.Number,
    service: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__7d4596065db7c162a79d127a35fb6ed6e856799b80d108fac143c0e3cbdf95d3(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetPort,
    host: typing.Optional[builtins.str] = None,
    http_headers: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecWorkerProbesReadinessProbeHttpGetHttpHeaders, typing.Dict[builtins.str, typing.Any]]]] = None,
    path: typing.Optional[builtins.str] = None,
    scheme: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d23f0865157e2b4b56fa79a69fb0e81c082030191273ecb3daf395f119663abd(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__464746fb2f1c52662c858252bb408f5640939b921260b3b21becd6ebfa7e74bc(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__076a26d15ed5944ac96babf8eac7b2c4922471157ab00bc277c7346550ac5275(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__3744765a187eec613f2b224fb5c64392a3fea417429ce206836fb1888d7976cd(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesReadinessProbeTcpSocketPort,
    host: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ab068370ca978a4a7ab1da6f02b792ee432ce43b273ed14107ef4d0e32f9266f(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__e3c831818e5d50b64ff9eaa381f115ee36a356fea8aa110511b8db59f6729e99(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__8bfc8cba1b9184f2484befb640f99d12c375794688471a3185b8d82bbbae7d84(
    *,
    exec: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbeExec, typing.Dict[builtins.str, typing.Any]]] = None,
    failure_threshold: typing.Optional[jsii.Number] = None,
    grpc: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbeGrpc, typing.Dict[builtins.str, typing.Any]]] = None,
    http_get: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGet, typing.Dict[builtins.str, typing.Any]]] = None,
    initial_delay_seconds: typing.Optional[jsii.Number] = None,
    period_seconds: typing.Optional[jsii.Number] = None,
    success_threshold: typing.Optional[jsii.Number] = None,
    tcp_socket: typing.Optional[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocket, typing.Dict[builtins.str, typing.Any]]] = None,
    termination_grace_period_seconds: typing.Optional[jsii.Number] = None,
    timeout_seconds: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__87ab04abc16b094c9cb940e2b179866b4cb3ee6dce76d99fdb47f9f590ea099a(
    *,
    command: typing.Optional[typing.Sequence[builtins.str]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__1e66736084f83dbd3133e7a4fb8810e8b6b83e44f874c4205aea9d75612ef924(
    *,
    port: jsii.Number,
    service: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__2432146edec6f8e753ff3af8e0e0f078a98e5748f1657136055682c432794712(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetPort,
    host: typing.Optional[builtins.str] = None,
    http_headers: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecWorkerProbesStartupProbeHttpGetHttpHeaders, typing.Dict[builtins.str, typing.Any]]]] = None,
    path: typing.Optional[builtins.str] = None,
    scheme: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__9cfcf4ded2bfbbeeee477905fb4fe4ad77cd618c24fec3e4d8048d67b8b993c5(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__2e92e218ffba174c976ba8ce2bfbfb875807e1e2549d2236b11d46900f0b89fa(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__8c82bf2a3d1a05787514456815fa334c291a1a97efc7515c78f30c5b7939902b(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__0e0006955f72e5ff236e880ec4ef435c38fb4823a946661bec780b723aed85e5(
    *,
    port: InferenceEndpointConfigSpecWorkerProbesStartupProbeTcpSocketPort,
    host: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__9414d3bb023555dff4ba5ca875b20a347937b3164a6745093b3d988dc19eda52(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__4d40737ab4b323e492429edd9c0828f83106304e6173a6c026b36855f3a47141(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__eddc00d886ad1017a43f3347ff219a93783c974c50da79d8a1a821c99f8c8150(
    *,
    claims: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigSpecWorkerResourcesClaims, typing.Dict[builtins.str, typing.Any]]]] = None,
    limits: typing.Optional[typing.Mapping[builtins.str, InferenceEndpointConfigSpecWorkerResourcesLimits]] = None,
    requests: typing.Optional[typing.Mapping[builtins.str, InferenceEndpointConfigSpecWorkerResourcesRequests]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ec5ccec2e96fc16326a5b7bfb60c7022ee3820180e75c9300cdff94bcf2dab11(
    *,
    name: builtins.str,
    request: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__884b20d33946475669bdc9c82430599d1a7fe9cb83b180092a4cdb55a29e46a5(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__df9b2bd15a2ebc9d531fa6ca5180aa91638ceab8a598c94eb0c1d48de441fafe(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__323d49150ebf3ed967a6cebd27c7083253fcbd35882c1ab9f2b863f42252bc9f(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__b053943e303fe411dbbfbc848a1fcbe3ccd918b303f504e5c1aabf3ffd03bdb7(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__57b28186f7e87c5a5ba677bbbdf96c4d1170e7bbb206ed4b79cdfff05abe0aaf(
    scope: _constructs_77d1e7e8.Construct,
    id: builtins.str,
    *,
    metadata: typing.Optional[typing.Union[_cdk8s_d3d9af27.ApiObjectMetadata, typing.Dict[builtins.str, typing.Any]]] = None,
    spec: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1Spec, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ab5a93df5ae05fcbdb15f95c0dda696db2fca782e7f3cca9afd63892463395d1(
    *,
    metadata: typing.Optional[typing.Union[_cdk8s_d3d9af27.ApiObjectMetadata, typing.Dict[builtins.str, typing.Any]]] = None,
    spec: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1Spec, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__7e195ec0730f13543ac2f4ba1501e6ffeb59955910e79ba49488445f66038e76(
    *,
    instance_type: builtins.str,
    model_name: builtins.str,
    model_source_config: typing.Union[InferenceEndpointConfigV1Alpha1SpecModelSourceConfig, typing.Dict[builtins.str, typing.Any]],
    worker: typing.Union[InferenceEndpointConfigV1Alpha1SpecWorker, typing.Dict[builtins.str, typing.Any]],
    auto_scaling_spec: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpec, typing.Dict[builtins.str, typing.Any]]] = None,
    endpoint_name: typing.Optional[builtins.str] = None,
    initial_replica_count: typing.Optional[jsii.Number] = None,
    invocation_endpoint: typing.Optional[builtins.str] = None,
    load_balancer: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecLoadBalancer, typing.Dict[builtins.str, typing.Any]]] = None,
    metrics: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecMetrics, typing.Dict[builtins.str, typing.Any]]] = None,
    model_version: typing.Optional[builtins.str] = None,
    replicas: typing.Optional[jsii.Number] = None,
    tags: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigV1Alpha1SpecTags, typing.Dict[builtins.str, typing.Any]]]] = None,
    tls_config: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecTlsConfig, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6a7e36fd2775d9ca83fc4b458987904e38b2caeefa52fbf64429396b9174b2ff(
    *,
    cloud_watch_trigger: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    cooldown_period: typing.Optional[jsii.Number] = None,
    initial_cooldown_period: typing.Optional[jsii.Number] = None,
    max_replica_count: typing.Optional[jsii.Number] = None,
    min_replica_count: typing.Optional[jsii.Number] = None,
    polling_interval: typing.Optional[jsii.Number] = None,
    prometheus_trigger: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTrigger, typing.Dict[builtins.str, typing.Any]]] = None,
    scale_down_stabilization_time: typing.Optional[jsii.Number] = None,
    scale_up_stabilization_time: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__f7068837eaea7b85a93b6b0c3cf0a0f071c7b2a50fc08c0c8b6bb9ef72ec12c1(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    dimensions: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerDimensions, typing.Dict[builtins.str, typing.Any]]]] = None,
    metric_collection_period: typing.Optional[jsii.Number] = None,
    metric_collection_start_time: typing.Optional[jsii.Number] = None,
    metric_name: typing.Optional[builtins.str] = None,
    metric_stat: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecCloudWatchTriggerMetricType] = None,
    min_value: typing.Optional[jsii.Number] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__b320195b36472cb3859b2055d781fa078106cc66df4141c9d7cf8778a1ca173a(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d04d2e87bc8a398e302a2e2e5c5917400b28809bc85ee8545ebffc421c1e7b4d(
    *,
    activation_target_value: typing.Optional[jsii.Number] = None,
    custom_headers: typing.Optional[builtins.str] = None,
    metric_type: typing.Optional[InferenceEndpointConfigV1Alpha1SpecAutoScalingSpecPrometheusTriggerMetricType] = None,
    name: typing.Optional[builtins.str] = None,
    namespace: typing.Optional[builtins.str] = None,
    query: typing.Optional[builtins.str] = None,
    server_address: typing.Optional[builtins.str] = None,
    target_value: typing.Optional[jsii.Number] = None,
    use_cached_metrics: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d8155347fd91d4deb5b548dbf57befb2a3b30987f351c14663665a4d0f46a40e(
    *,
    health_check_path: typing.Optional[builtins.str] = None,
    routing_algorithm: typing.Optional[InferenceEndpointConfigV1Alpha1SpecLoadBalancerRoutingAlgorithm] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__471cc423e2b411f53f89e5c0199ffcce53fb6f88057476f5acff8abd88ebd056(
    *,
    enabled: typing.Optional[builtins.bool] = None,
    metrics_scrape_interval_seconds: typing.Optional[jsii.Number] = None,
    model_metrics: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecMetricsModelMetrics, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__d2cccff18dac19c5a4f2c42dcd3cc5e595236750b1db08d869ea4016b11662d3(
    *,
    path: typing.Optional[builtins.str] = None,
    port: typing.Optional[jsii.Number] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__f2e9c757aa79acf34ce70efbfcc28b3e1440ca4fcf1516e802825f0945fd4ead(
    *,
    model_source_type: InferenceEndpointConfigV1Alpha1SpecModelSourceConfigModelSourceType,
    fsx_storage: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecModelSourceConfigFsxStorage, typing.Dict[builtins.str, typing.Any]]] = None,
    model_location: typing.Optional[builtins.str] = None,
    prefetch_enabled: typing.Optional[builtins.bool] = None,
    s3_storage: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecModelSourceConfigS3Storage, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__075ea67e4b158b427f464acb6bc341707702cfab0768e1517e7266f6ef044ee2(
    *,
    file_system_id: builtins.str,
    dns_name: typing.Optional[builtins.str] = None,
    mount_name: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__16130bf13ecfc6c1ec84ad03cc26dd6e3b785ef70227f3da8d3a30d4bbb02683(
    *,
    bucket_name: builtins.str,
    region: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__b15864b81b13057fa8e9540eb64b66d1442fbebe028ab4669aba6895878bb803(
    *,
    name: builtins.str,
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__8fed22cbbcacaa1b15f0e939bc5b071caed4d715380144eeee2c15ee3d6f7c92(
    *,
    tls_certificate_output_s3_uri: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6b5b2573758291d6eb8485ffab0a6bbd5d5f69f45958ef66829f2746fccaaca9(
    *,
    image: builtins.str,
    model_invocation_port: typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerModelInvocationPort, typing.Dict[builtins.str, typing.Any]],
    model_volume_mount: typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerModelVolumeMount, typing.Dict[builtins.str, typing.Any]],
    resources: typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerResources, typing.Dict[builtins.str, typing.Any]],
    environment_variables: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariables, typing.Dict[builtins.str, typing.Any]]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ea4110b5c645c8ac1b932cf27985932f80250c2653186b1018ac8a86b8a5fcc2(
    *,
    name: builtins.str,
    value: typing.Optional[builtins.str] = None,
    value_from: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFrom, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__70f12330a2848fc727b64172a7656e97c288f37662b5105f53f21b3c92406340(
    *,
    config_map_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromConfigMapKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
    field_ref: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFieldRef, typing.Dict[builtins.str, typing.Any]]] = None,
    file_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromFileKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
    resource_field_ref: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRef, typing.Dict[builtins.str, typing.Any]]] = None,
    secret_key_ref: typing.Optional[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromSecretKeyRef, typing.Dict[builtins.str, typing.Any]]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__98c27e379ba4ce2dce7faa54c061eed3084e51e162468509f3e75ab2c1d98058(
    *,
    key: builtins.str,
    name: typing.Optional[builtins.str] = None,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__9ec7fb3f157191c8fe9d8b4102ea7939ee9c386c6c22dba7635aecd3630bd424(
    *,
    field_path: builtins.str,
    api_version: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__4d1fc46b053da42fb4788e9a46f496e7c1672a71b1ac3e6d6c8526af5d6fc8e2(
    *,
    key: builtins.str,
    path: builtins.str,
    volume_name: builtins.str,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__35dc7ec854953aab3ecd1a2019b286d71b462a67e6f9d4fc17bd2e194ba58de4(
    *,
    resource: builtins.str,
    container_name: typing.Optional[builtins.str] = None,
    divisor: typing.Optional[InferenceEndpointConfigV1Alpha1SpecWorkerEnvironmentVariablesValueFromResourceFieldRefDivisor] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__53b8814c8d008e00375c50d7c7262fb53543a9c7e6ef48fd95bd24a1898d136b(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__07fe800c95ce12c7bcba75b416e7ad6eb3ae0fc22a80ea4e842c8157fd1dc5b3(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__e1776f0b66fba17434fd9097188c012cd06c8e72b036ff31e2886b6b65cd6435(
    *,
    key: builtins.str,
    name: typing.Optional[builtins.str] = None,
    optional: typing.Optional[builtins.bool] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__6885d84fea510019b1677f24c9691ea0f1948e0d7b33322cc59f3edfba84b960(
    *,
    container_port: jsii.Number,
    name: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__01203305bcc8f841635ce89f44ad43a134eb5375accea3c6a80d271e48ea89f6(
    *,
    name: builtins.str,
    mount_path: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__dedc5771510a6487022c4c69dd1d45bd20d2c4b97a69245ff36c9bfdf7a834d6(
    *,
    claims: typing.Optional[typing.Sequence[typing.Union[InferenceEndpointConfigV1Alpha1SpecWorkerResourcesClaims, typing.Dict[builtins.str, typing.Any]]]] = None,
    limits: typing.Optional[typing.Mapping[builtins.str, InferenceEndpointConfigV1Alpha1SpecWorkerResourcesLimits]] = None,
    requests: typing.Optional[typing.Mapping[builtins.str, InferenceEndpointConfigV1Alpha1SpecWorkerResourcesRequests]] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__5cfa2d1bf0f74e09180a7e03981692020270cd4f0e963ffa1b5836e77bf70492(
    *,
    name: builtins.str,
    request: typing.Optional[builtins.str] = None,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__ac408455944d405b21839ad8c33c59abd5e2f5b339d076b7a58a33fe393cb379(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__1c0d151917d2d21ee4daaa5b2d358b392fdc6a6a6104f6b233fbbaef94537bbc(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__21f5ca265b5b90e7e85942398a7c0459119cad3e9cd6e8b4838156ba819c4fdd(
    value: jsii.Number,
) -> None:
    """Type checking stubs"""
    pass

def _typecheckingstub__09dc7786b983e4793543f26f5813f9172ffbe5aa41ed9cc27161c923ad35bad9(
    value: builtins.str,
) -> None:
    """Type checking stubs"""
    pass
