"""The exporter: background collection into immutable snapshots, rendered once, served many times."""
