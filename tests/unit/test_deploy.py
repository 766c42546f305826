"""The files for users with Docker or a Kubernetes cluster are valid, checked offline against
the compose specification (vendored by check-jsonschema) and the Kubernetes schemas (shipped
by kubernetes-validate)."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.common.names import LIVE, LIVE_GROUP, REDIS_BUCKETS
from services.common.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# a Kafka cluster of three: what one lost broker must leave (the brokers' settings)
REPLICATION = {"default.replication.factor": "3", "min.insync.replicas": "2",
               "offsets.topic.replication.factor": "3",
               "transaction.state.log.replication.factor": "3",
               "transaction.state.log.min.isr": "2"}


def check_compose(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "check-jsonschema"), "--builtin-schema",
                           "vendor.compose-spec", str(path)],
                          capture_output=True, text=True, check=False)


def test_compose_file_follows_the_compose_spec() -> None:
    result = check_compose(ROOT / "docker-compose.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_check_rejects_a_broken_file(tmp_path: Path) -> None:
    broken = tmp_path / "compose.yml"
    broken.write_text("services:\n  gateway:\n    ports: 8000\n    healthcheck: yes\n")
    assert check_compose(broken).returncode != 0


def test_compose_runs_the_services_after_healthy_infrastructure() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    kafkas = ["kafka1", "kafka2", "kafka3"]
    assert set(services) == {*kafkas, "redis", "processor", "gateway", "robots",
                             "robot-pool"}
    for name in (*kafkas, "redis", "gateway"):
        assert "healthcheck" in services[name]
    for name in ("processor", "gateway", "robots", "robot-pool"):
        depends = services[name]["depends_on"]
        assert depends == {dep: {"condition": "service_healthy"} for dep in
                           (*kafkas, "redis")}


def test_compose_runs_a_kafka_cluster_of_three_with_replication_3() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    voters = "1@kafka1:9093,2@kafka2:9093,3@kafka3:9093"
    for i, name in enumerate(["kafka1", "kafka2", "kafka3"], 1):
        env = services[name]["environment"]
        assert (env["KAFKA_NODE_ID"], env["KAFKA_PROCESS_ROLES"]) == (str(i), "broker,controller")
        assert env["KAFKA_CONTROLLER_QUORUM_VOTERS"] == voters
        assert env["KAFKA_ADVERTISED_LISTENERS"] == f"PLAINTEXT://{name}:9092"
        assert {key: env["KAFKA_" + key.upper().replace(".", "_")] for key in REPLICATION} \
            == REPLICATION
    for name in ("processor", "gateway"):
        env = services[name]["environment"]
        assert env["TABLESERVER_KAFKA"] == "kafka1:9092,kafka2:9092,kafka3:9092"
        assert env["TABLESERVER_REPLICATION"] == "3"


def kafka_nodes(tmp_path: Path, brokers: int) -> list[dict[str, str]]:
    """The server.properties deploy/kafka/configure.sh writes for `brokers` nodes from port
    30092 (nothing started)."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TABLESERVER_")},
           "TABLESERVER_DATA": str(tmp_path), "TABLESERVER_KAFKA_PORT": "30092",
           "TABLESERVER_KAFKA_BROKERS": str(brokers)}
    subprocess.run([str(ROOT / "deploy/kafka/configure.sh")], env=env, check=True)
    paths = [tmp_path / "kafka"] + [tmp_path / "kafka" / f"node-{i}" for i in
                                     range(2, brokers + 1)]
    return [dict(line.split("=", 1) for line in (path / "server.properties").read_text()
                 .splitlines() if line and not line.startswith("#")) for path in paths]


def test_kafka_three_nodes_vote_together_and_replicate_3_ways(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = kafka_nodes(tmp_path, 3)
    assert [node["node.id"] for node in nodes] == ["1", "2", "3"]
    for i, node in enumerate(nodes):
        port = 30092 + 2 * i
        assert node["controller.quorum.voters"] == \
            "1@127.0.0.1:30093,2@127.0.0.1:30095,3@127.0.0.1:30097"
        assert node["listeners"] == f"PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:" \
            f"{port + 1}"
        assert {key: node[key] for key in REPLICATION} == REPLICATION
    assert len({node["log.dirs"] for node in nodes}) == 3
    # the services find the same brokers, and create their topics with the same replication
    for name in list(os.environ):
        if name.startswith("TABLESERVER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TABLESERVER_KAFKA_PORT", "30092")
    monkeypatch.setenv("TABLESERVER_KAFKA_BROKERS", "3")
    settings = Settings()
    assert settings.kafka_bootstrap == ",".join(
        node["advertised.listeners"].removeprefix("PLAINTEXT://") for node in nodes)
    assert settings.replication == int(nodes[0]["default.replication.factor"])


def test_kafka_one_node_keeps_its_files_and_replication_1(tmp_path: Path) -> None:
    [node] = kafka_nodes(tmp_path, 1)
    assert node["controller.quorum.voters"] == "1@127.0.0.1:30093"
    assert node["log.dirs"] == str(tmp_path / "kafka" / "log")
    assert (node["default.replication.factor"], node["min.insync.replicas"],
            node["transaction.state.log.min.isr"]) == ("1", "1", "1")


def validate_k8s(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "kubernetes-validate"), *map(str, paths)],
                          capture_output=True, text=True, check=False)


def test_kubernetes_manifests_are_valid() -> None:
    kustomization = yaml.safe_load((ROOT / "deploy/k8s/kustomization.yaml").read_text())
    paths = [ROOT / "deploy/k8s" / name for name in kustomization["resources"]]
    result = validate_k8s(*paths)
    assert result.returncode == 0, result.stdout + result.stderr
    kinds = {doc["kind"] for p in paths for doc in yaml.safe_load_all(p.read_text())}
    assert kinds == {"Namespace", "ConfigMap", "Deployment", "Service"}  # no secret shipped
    docs = [doc for p in paths for doc in yaml.safe_load_all(p.read_text())]
    for doc in docs:
        if doc["kind"] == "Deployment" and doc["metadata"]["name"] != "redis":
            [container] = doc["spec"]["template"]["spec"]["containers"]
            assert {"livenessProbe", "readinessProbe"} <= set(container), doc["metadata"]
    texts = " ".join(p.read_text() for p in paths)
    assert "change-me" not in texts and "TABLESERVER_ENV: production" in texts


def test_kubernetes_check_rejects_a_broken_manifest(tmp_path: Path) -> None:
    broken = tmp_path / "bad.yaml"
    broken.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n"
                      "spec: {replicas: many}\n")
    assert validate_k8s(broken).returncode != 0


def test_deploy_scripts_are_executable() -> None:
    for script in ["up.sh", "down.sh", "ctl.sh", "kafka/fetch.sh", "kafka/configure.sh",
                   "kafka/start.sh", "kafka/stop.sh", "redis/start.sh", "redis/stop.sh",
                   "redis/cluster-start.sh", "tls/start.sh", "tls/stop.sh"]:
        path = ROOT / "deploy" / script
        assert path.stat().st_mode & 0o111, f"{script} is not executable"
        result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True,
                                check=False)
        assert result.returncode == 0, result.stderr



def redis_settings(script: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """`script` run in bash after deploy/settings.sh, with only `settings` among tableserver's."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("TABLESERVER_")}
    return subprocess.run(["bash", "-c", f". deploy/settings.sh; {script}"], cwd=ROOT,
                          env={**env, **settings}, capture_output=True, text=True, check=False)


def test_redis_cluster_nodes_and_buses_take_the_ports_after_redis_port() -> None:
    ports = "for i in 1 2 3; do echo $(redis_node_port $i) $(redis_bus_port $i); done"
    by_default = redis_settings(ports, TABLESERVER_REDIS_CLUSTER="3")
    assert by_default.stdout.split("\n")[:3] == ["6379 6382", "6380 6383", "6381 6384"]
    moved = redis_settings(ports, TABLESERVER_REDIS_CLUSTER="3", TABLESERVER_REDIS_PORT="22379",
                           TABLESERVER_REDIS_BUS_PORT="32000")
    assert moved.stdout.split("\n")[:3] == ["22379 32000", "22380 32001", "22381 32002"]


@pytest.mark.parametrize("primaries", ["1", "2", "three", "-3", "3.5"])
def test_redis_start_refuses_a_cluster_redis_cli_would_not_form(
        tmp_path: Path, primaries: str) -> None:
    refused = subprocess.run([str(ROOT / "deploy/redis/start.sh")], capture_output=True,
                             text=True, check=False,
                             env={**os.environ, "TABLESERVER_DATA": str(tmp_path),
                                  "TABLESERVER_REDIS_CLUSTER": primaries})
    assert refused.returncode == 1
    assert f"TABLESERVER_REDIS_CLUSTER={primaries}: say 0 for one Redis server, or 3 or more " \
           "primaries for a Redis Cluster" in refused.stderr
    assert not (tmp_path / "redis").exists() and not (tmp_path / "redis-cluster").exists()


# --- the cluster for 100,000 tables (deploy/k8s-cluster-100k, docs/capacity.md) ----------------

CLUSTER = ROOT / "deploy" / "k8s-cluster-100k"
TABLES = 100_000
PARTITIONS_PER_BROKER = 10_000  # the most measured on one broker here (docs/capacity.md)
CUSTOM = {"kafka.strimzi.io/v1beta2", "keda.sh/v1alpha1"}  # kinds whose operator is not here
EVENTS_PER_S = 16_000  # 100,000 tables at a human pace (docs/capacity.md)
REDIS_MS_PER_EVENT = 0.17  # Redis's CPU an event, on one thread: the plan's figure (ibid.)
REDIS_BUSY = 0.7  # of a primary's thread, at most


def render(path: Path) -> list[dict[str, Any]]:
    """The overlay as `kubectl kustomize` renders it (kubectl ships kustomize)."""
    kubectl = shutil.which("kubectl")
    assert kubectl, "kubectl (1.14 or newer, with kustomize) is needed to render the overlay"
    result = subprocess.run([kubectl, "kustomize", str(path)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    return [doc for doc in yaml.safe_load_all(result.stdout) if doc]


def named(docs: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    [doc] = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def cluster_problems(docs: list[dict[str, Any]]) -> list[str]:
    """What the rendered cluster gets wrong against the model; empty when nothing."""
    problems = []
    settings = named(docs, "ConfigMap", "tableserver")["data"]
    shards, replication = int(settings["TABLESERVER_SHARDS"]), int(
        settings["TABLESERVER_REPLICATION"])
    kafka = named(docs, "Kafka", "tableserver")
    annotations = kafka["metadata"].get("annotations", {})
    if {k: annotations.get(k) for k in ("strimzi.io/node-pools", "strimzi.io/kraft")} != \
            {"strimzi.io/node-pools": "enabled", "strimzi.io/kraft": "enabled"}:
        problems.append(f"the Kafka is not KRaft with node pools: {annotations}")
    config = {k: str(v).lower() for k, v in kafka["spec"]["kafka"]["config"].items()}
    if {k: config.get(k) for k in REPLICATION} != REPLICATION or \
            config.get("auto.create.topics.enable") != "false":
        problems.append(f"the brokers' replication settings: {config}")
    pools = {d["metadata"]["name"]: d for d in docs if d["kind"] == "KafkaNodePool"}
    for pool in pools.values():
        if pool["metadata"]["labels"].get("strimzi.io/cluster") != kafka["metadata"]["name"]:
            problems.append(f"pool {pool['metadata']['name']} is not the Kafka's")
    roles = {name: sorted(p["spec"]["roles"]) for name, p in pools.items()}
    controllers = [p for p in pools.values() if p["spec"]["roles"] == ["controller"]]
    brokers = [p for p in pools.values() if "broker" in p["spec"]["roles"]]
    if len(controllers) != 1 or controllers[0]["spec"]["replicas"] not in (3, 5):
        problems.append(f"a quorum of 3 or 5 dedicated controllers expected: {roles}")
    broker_count = sum(p["spec"]["replicas"] for p in brokers)
    if broker_count * PARTITIONS_PER_BROKER < TABLES * replication:
        problems.append(f"{broker_count} brokers hold {broker_count * PARTITIONS_PER_BROKER:,} "
                        f"partitions, not {TABLES * replication:,}")
    scaler = named(docs, "ScaledObject", "processor")
    target = scaler["spec"]["scaleTargetRef"]["name"]
    if not any(d["kind"] == "Deployment" and d["metadata"]["name"] == target
               and d["metadata"]["namespace"] == scaler["metadata"]["namespace"] for d in docs):
        problems.append(f"the scaler's target {target} is no Deployment beside it")
    if not 1 <= scaler["spec"]["minReplicaCount"] <= scaler["spec"]["maxReplicaCount"] <= shards:
        problems.append(f"workers {scaler['spec']['minReplicaCount']}–"
                        f"{scaler['spec']['maxReplicaCount']}, for {shards} shards")
    [trigger] = scaler["spec"]["triggers"]
    bootstrap = f"{kafka['metadata']['name']}-kafka-bootstrap.{kafka['metadata']['namespace']}:9092"
    if (trigger["type"], trigger["metadata"]["consumerGroup"], trigger["metadata"]["topic"],
            trigger["metadata"]["bootstrapServers"], settings["TABLESERVER_KAFKA"]) != \
            ("kafka", LIVE_GROUP, LIVE, bootstrap, bootstrap):
        problems.append(f"the scaler reads another lag than the workers commit: {trigger}")
    problems += redis_problems(docs, settings)
    service = named(docs, "Service", "gateway")["spec"]
    if service.get("sessionAffinity") != "ClientIP" or not service.get("ports"):
        problems.append(f"the gateways' Service is not sticky: {service}")
    ingress = named(docs, "Ingress", "gateway")
    if ingress["metadata"]["annotations"].get("nginx.ingress.kubernetes.io/affinity") != "cookie":
        problems.append("the Ingress keeps no browser on its gateway")
    return problems


def redis_problems(docs: list[dict[str, Any]], settings: dict[str, str]) -> list[str]:
    """The Redis Cluster against the model: its primaries and replicas as the services and
    the Job that forms it say, the busiest primary's thread under `REDIS_BUSY` (tables' keys
    in `REDIS_BUCKETS` slots spread evenly, services/common/names.py), the services' Service
    on its pods, and no single Redis left."""
    problems = []
    primaries = int(settings.get("TABLESERVER_REDIS_CLUSTER", "0"))
    nodes = named(docs, "StatefulSet", "redis-cluster")["spec"]
    [create] = named(docs, "Job", "redis-cluster-create")["spec"]["template"]["spec"][
        "containers"][0]["args"]
    replicas = re.search(r"--cluster-replicas (\d+)", create)
    each = 1 + int(replicas.group(1)) if replicas else 1
    if primaries < 3 or nodes["replicas"] != primaries * each or \
            f"seq 0 {nodes['replicas'] - 1}" not in create:
        problems.append(f"{nodes['replicas']} Redis pods for {primaries} primaries of {each} "
                        "nodes each")
    [redis] = nodes["template"]["spec"]["containers"]
    if "--cluster-enabled yes" not in " ".join(redis["args"]):
        problems.append("the Redis pods are not cluster nodes")
    busiest = math.ceil(REDIS_BUCKETS / max(primaries, 1)) / REDIS_BUCKETS * EVENTS_PER_S \
        * REDIS_MS_PER_EVENT / 1000
    if busiest > REDIS_BUSY:
        problems.append(f"Redis: the busiest of {primaries} primaries at {busiest:.0%} of its "
                        "thread")
    selector = named(docs, "Service", "redis")["spec"]["selector"]
    if not selector or selector.items() - nodes["template"]["metadata"]["labels"].items():
        problems.append(f"the Service redis does not reach the cluster's pods: {selector}")
    if any(d["kind"] == "Deployment" and d["metadata"]["name"] == "redis" for d in docs):
        problems.append("a single Redis is still deployed")
    return problems


def test_the_100k_cluster_renders_and_follows_the_model(tmp_path: Path) -> None:
    docs = render(CLUSTER)
    kinds = {doc["kind"] for doc in docs}
    assert {"Kafka", "KafkaNodePool", "ScaledObject", "Deployment", "Service", "Ingress",
            "ConfigMap", "Namespace", "DaemonSet"} <= kinds
    assert cluster_problems(docs) == []
    # the objects of Kubernetes itself validate as the base's do (the custom kinds have no
    # schema here: their fields are checked above)
    core = tmp_path / "core.yaml"
    core.write_text(yaml.safe_dump_all([d for d in docs if d["apiVersion"] not in CUSTOM]))
    result = validate_k8s(core)
    assert result.returncode == 0, result.stdout + result.stderr
    # the base is the base: its probes and settings came through the patches
    gateway = named(docs, "Deployment", "gateway")["spec"]["template"]["spec"]["containers"][0]
    assert {"livenessProbe", "readinessProbe", "envFrom"} <= set(gateway)


def test_the_cluster_check_finds_a_scaler_beyond_the_shards_too_few_brokers_and_primaries() -> None:
    docs = render(CLUSTER)
    named(docs, "ScaledObject", "processor")["spec"]["maxReplicaCount"] = 65
    named(docs, "KafkaNodePool", "brokers")["spec"]["replicas"] = 29
    named(docs, "Service", "gateway")["spec"].pop("sessionAffinity")
    named(docs, "ConfigMap", "tableserver")["data"]["TABLESERVER_REDIS_CLUSTER"] = "3"
    found = cluster_problems(docs)
    assert [problem.split(" ")[0] for problem in found] == ["29", "workers", "12", "Redis:",
                                                             "the"], found
    assert "for 64 shards" in found[1] and "not sticky" in found[4]
    assert "for 3 primaries" in found[2] and "3 primaries at 94%" in found[3]


@pytest.mark.parametrize(("given", "said"), [
    ({"TABLESERVER_TLS_CERT": "/no/such.crt", "TABLESERVER_TLS_KEY": "/no/such.key"},
     "TABLESERVER_TLS_CERT=/no/such.crt: no such file to read"),
    ({"TABLESERVER_TLS_KEY": "/no/such.key"}, "TABLESERVER_TLS_CERT is not set"),
])
def test_the_tls_front_refuses_a_certificate_it_cannot_read_naming_the_setting(
        tmp_path: Path, given: dict[str, str], said: str) -> None:
    """deploy/tls/start.sh with a certificate or key it cannot read: one line naming the
    setting, nothing started or written (nginx is not even looked for)."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("TABLESERVER_")}
    refused = subprocess.run([str(ROOT / "deploy/tls/start.sh")], capture_output=True,
                             text=True, check=False,
                             env={**env, "TABLESERVER_DATA": str(tmp_path), **given})
    assert refused.returncode == 1
    assert refused.stderr.startswith(said)
    assert "give both the certificate (full chain) and its key, or neither" in refused.stderr
    assert not (tmp_path / "tls").exists()
