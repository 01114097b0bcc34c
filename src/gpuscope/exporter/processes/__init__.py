"""Per-process GPU use (``--process-metrics``): processes → cgroups → containers, pods and jobs → series."""
