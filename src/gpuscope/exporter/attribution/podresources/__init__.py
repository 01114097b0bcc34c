"""The kubelet PodResources v1 API: api.proto and the modules scripts/gen-podresources generates from it."""
