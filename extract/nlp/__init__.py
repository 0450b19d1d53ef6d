"""NLP extraction: the spaCy pipeline, its components and model, the workers that run it, and the extraction cache."""
