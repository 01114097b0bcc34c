# syntax=docker/dockerfile:1
# gpuscope's exporter image: a drop-in for dcgm-exporter's (same port, same arguments and env vars, the same
# /etc/dcgm-exporter/*.csv paths, a `dcgm-exporter` command), so the GPU Operator and dcgm-exporter's Helm chart
# run it unchanged. Build: `make image` (or docker build -t ghcr.io/gpuscope/gpuscope:$(VERSION) .). The default
# image reference in the fleet spec and the generated DaemonSet is this tag: build and push it, or set
# exporter.image. tests/test_image.py runs this file's ENTRYPOINT and CMD from a wheel-only install.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# Stage 1: build the wheels (gpuscope's and its dependencies'); the source tree stays in this stage.
FROM ${PYTHON_IMAGE} AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# Stage 2: the runtime: the wheels installed, nothing of the source tree.
FROM ${PYTHON_IMAGE}
ARG VERSION=0.0.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="gpuscope" \
      org.opencontainers.image.description="dcgm-exporter compatible GPU metrics exporter (drop-in image)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/gpuscope/gpuscope" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links /wheels gpuscope \
    && rm -rf /root/.cache
# The collectors files the GPU Operator and the Helm chart name (same fields: dcgm-exporter ships both with the
# same rows enabled).
COPY etc/default-counters.csv /etc/dcgm-exporter/default-counters.csv
COPY etc/default-counters.csv /etc/dcgm-exporter/dcp-metrics-included.csv
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
EXPOSE 9400
STOPSIGNAL SIGTERM
ENTRYPOINT ["dcgm-exporter"]
CMD []
