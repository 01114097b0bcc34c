"""What the simulator adds to an exporter: fault injection over HTTP and many simulated nodes in one process.

The exporter itself never imports this package (an import contract checks it): ``gpuscope sim``,
``gpuscope exporter --backend sim`` and ``gpuscope up`` mount ``routes.FAULT_ROUTES`` on the exporter's
application, and drive faults through ``control``. The simulated GPUs themselves are ``gpuscope.backends.sim``.
"""
