"""Checks of the calibration corpus: the textbook mechanisms and Lyu, Su and Li's sparse-vector variants that calibrate the auditor."""
