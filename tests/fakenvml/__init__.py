"""A fake ``pynvml`` built from device descriptions: the only hardware stand-in of the NVML backend's tests."""

from tests.fakenvml.fake import FakeNvml

__all__ = ["FakeNvml"]
