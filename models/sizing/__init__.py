"""The sizing engine: from a scenario and a hardware catalog to an explained design."""
