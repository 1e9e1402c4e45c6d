"""Evaluation: BEIR-format retrieval benchmarks and scripted Q&A suites."""
