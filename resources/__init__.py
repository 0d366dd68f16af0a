"""Package data: seed catalog, calibration data, fonts and icons."""
