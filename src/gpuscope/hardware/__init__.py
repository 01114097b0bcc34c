"""What gpuscope knows about GPU hardware itself: the models it can describe, simulate and budget for."""
