"""Performance models calibrated on the studies; each module declares its model card."""
