"""Numba intrinsics for the hot loops (the learners' training loops, both games' searches): a
reference-free view of an array (and of every array in a tuple), the use that keeps the
array behind such a view alive, and a prefetch hint. None changes a result; they only make
the loops faster."""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from boardai._jit import njit


def _borrow(typingctx: Any, arr: Any) -> Any:
    """A view of the array ``arr`` that holds no reference to its memory (null meminfo).

    Numba counts references to every array passed between compiled functions with atomic
    instructions (``lock inc`` / ``lock dec``, about 75 per 2048 training move), and each one
    also waits for the weight loads in flight, which is what a memory-bound loop cannot
    afford; counting on a borrowed view is a null test. Borrow only arrays that outlive every
    use of the view: the arguments of the compiled function that borrows them, or an array it
    makes and hands to :func:`keep` after the last use of the view.
    """
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()

    return arr(arr), codegen


#: :func:`_borrow` as a compiled intrinsic: ``view = borrow(array)``.
borrow: Any = intrinsic(_borrow)


@njit
def keep(owner: Any) -> None:
    """Nothing: a use of ``owner`` (an array, or a tuple of them) after the last use of its
    :func:`borrow`-ed views, so that numba, which frees an array after its last use, keeps
    it (and the memory the views read) alive until then. Compiled code only."""


def borrow_all(value):  # type: ignore[no-untyped-def]  # (numba matches the overload's names)
    """``value`` with every array in it, in tuples nested to any depth, :func:`borrow`-ed; the
    rest as it is. For a kernel's ``data`` argument of any shape (a search's evaluator data).
    Compiled code only."""
    raise NotImplementedError("borrow_all runs in compiled code only")


@overload(borrow_all, inline="always")
def _borrow_all(value):  # type: ignore[no-untyped-def]
    if isinstance(value, types.Array):
        return lambda value: borrow(value)
    if isinstance(value, types.BaseTuple) and len(value) > 0:
        items = "".join(f"borrow_all(value[{i}]), " for i in range(len(value)))
        namespace: dict[str, Any] = {"borrow_all": borrow_all}
        exec(f"def each(value):\n    return ({items})\n", namespace)
        return namespace["each"]
    return lambda value: value


def _prefetch(typingctx: Any, arr: Any, index: Any) -> Any:
    """Ask the CPU to start loading ``arr[index]`` into its caches, and go on (``prefetcht0``;
    no bounds check, no effect on results). For entries needed a little later, so their
    memory latency overlaps other work."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, value=args[0])
        ptr = cgutils.get_item_pointer(
            context, builder, array_type, view, [args[1]], wraparound=False
        )
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch." + i8p.intrinsic_name,  # p0 (opaque pointers) or p0i8 (older)
        )
        # read, keep in all cache levels, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(arr, index), codegen


#: :func:`_prefetch` as a compiled intrinsic: ``prefetch(array, index)``.
prefetch: Any = intrinsic(_prefetch)
