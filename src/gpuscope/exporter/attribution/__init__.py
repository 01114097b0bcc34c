"""Workload attribution: which Kubernetes pod or Slurm job holds each GPU and MIG instance, read per collection."""
