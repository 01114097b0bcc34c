"""The PromQL of each dashboard, kept apart from its layout (kubernetes-mixin's ``queries/<dashboard>``)."""
