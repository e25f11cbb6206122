from .engine import run, load, attribute_defaults, ns3_version  # noqa
