"""Reports: HTML, PDF, JSON, CSV, Markdown."""
