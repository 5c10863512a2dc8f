"""Python values that compiled code sees as constants: everything a value holds is in its numba
type, so a kernel is compiled (and cached) per value, and the value itself carries nothing at
run time. :class:`boardai.jitref.Ref` (a compiled function) and
:class:`boardai.g2048.ntuple_index.IndexLayout` (a network's patterns) are such values.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.extending import NativeValue, models, register_model, typeof_impl, unbox


def register_constant(value_class: type, type_class: type[types.Type]) -> None:
    """Let numba take instances of ``value_class`` as arguments: each is typed by its
    ``numba_type`` attribute (an instance of ``type_class``) and passed as nothing."""

    @typeof_impl.register(value_class)
    def _typeof(val: Any, c: Any) -> types.Type:
        return val.numba_type

    register_model(type_class)(models.OpaqueModel)

    @unbox(type_class)
    def _unbox(typ: types.Type, obj: Any, c: Any) -> NativeValue:
        return NativeValue(cgutils.get_null_value(c.context.get_value_type(typ)))
