"""The files for users with Docker or a Kubernetes cluster are valid, checked offline against
the compose specification (vendored by check-jsonschema) and the Kubernetes schemas (shipped
by kubernetes-validate)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


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
    assert set(services) == {"kafka", "redis", "processor", "gateway"}
    for name in ("kafka", "redis", "gateway"):
        assert "healthcheck" in services[name]
    for name in ("processor", "gateway"):
        depends = services[name]["depends_on"]
        assert depends == {"kafka": {"condition": "service_healthy"},
                           "redis": {"condition": "service_healthy"}}
    assert services["kafka"]["environment"]["KAFKA_PROCESS_ROLES"] == "broker,controller"


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
    for script in ["up.sh", "down.sh", "ctl.sh", "kafka/fetch.sh", "kafka/start.sh",
                   "kafka/stop.sh", "redis/start.sh", "redis/stop.sh"]:
        path = ROOT / "deploy" / script
        assert path.stat().st_mode & 0o111, f"{script} is not executable"
        result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True,
                                check=False)
        assert result.returncode == 0, result.stderr
