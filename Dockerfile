# The tableserver services (gateway and processor) as one image, for docker-compose.yml and
# the Kubernetes manifests in deploy/k8s. Our own machines run them without Docker (make up).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY services ./services
COPY deploy/demo ./deploy/demo
RUN pip install --no-cache-dir .
ENV TABLESERVER_DATA=/data
VOLUME /data
EXPOSE 8000
CMD ["python", "-m", "services.gateway"]
