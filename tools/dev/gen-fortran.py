#!/usr/bin/env python3
"""Writes the Fortran interface of nodempi from the same inputs as include/mpi.h:

  include/mpif.h            constants for `include 'mpif.h'` (and, through src/fortran/mpi.f90,
                            for `use mpi`), from include/mpi-abi-constants.tsv and, in a
                            section of their own, include/mpi-legacy.tsv (the MPI-1 names
                            MPI-3.0 removed, a nodempi extension);
  src/fortran/bindings.c    the C entry points mpi_x_ / pmpi_x_ (gfortran's names) for every
                            function of include/mpi-prototypes.txt whose arguments follow the
                            plain rules below.

The rules (one per C parameter type; the Fortran argument is always passed by reference):
  int / MPI_Aint / MPI_Offset / MPI_Count value    -> pointer, dereferenced
  int *, int[], MPI_Aint[] ...                     -> passed through (MPI_Fint is int)
  handle value                                     -> MPI_X_fromint(*h)
  handle pointer                                   -> converted in, and back with MPI_X_toint
  choice buffer                                    -> f_buffer (MPI_BOTTOM, MPI_IN_PLACE)
  MPI_Status *                                     -> f_status (MPI_STATUS_IGNORE)
  int weights[]                                    -> f_weights (MPI_UNWEIGHTED ...)
  const char *                                     -> f_string_in (hidden length, blanks trimmed;
                                                      info keys and values lose leading ones too)
  char * (output)                                  -> f_string_out (blank padded)
  LOGICAL arguments (by name, see LOGICAL_IN/OUT)  -> f_logical_in / f_to_logical
Every function that needs more (arrays of handles, callbacks, attributes, 1-based indices,
LOGICAL arrays, MPI_Init) is hand-written in src/fortran/*.c and listed in HAND; functions
without a Fortran binding in MPI-4/5 are listed in NO_BINDING. Run from the repository root;
tests/abi/check_exports.sh checks that the committed files are what this script writes."""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
tsv = root / "include" / "mpi-abi-constants.tsv"
protos = root / "include" / "mpi-prototypes.txt"
legacy = root / "include" / "mpi-legacy.tsv"

HANDLES = {
    "MPI_Comm": "Comm", "MPI_Datatype": "Type", "MPI_Group": "Group", "MPI_Request": "Request",
    "MPI_Info": "Info", "MPI_Op": "Op", "MPI_Errhandler": "Errhandler", "MPI_Win": "Win",
    "MPI_Message": "Message", "MPI_Session": "Session", "MPI_File": "File",
}
SCALARS = {"int": "MPI_Fint", "MPI_Aint": "MPI_Aint", "MPI_Offset": "MPI_Offset",
           "MPI_Count": "MPI_Count"}

# Hand-written in src/fortran/ (file named in the comment).
HAND = {
    # runtime.c: no argc/argv in Fortran; functions returning values; varargs
    "MPI_Init", "MPI_Init_thread", "MPI_Pcontrol", "MPI_Wtime", "MPI_Wtick", "MPI_Aint_add",
    "MPI_Aint_diff", "MPI_Buffer_detach", "MPI_Comm_detach_buffer", "MPI_Session_detach_buffer",
    "MPI_Info_create_env",
    # requests.c: arrays of requests, statuses and 1-based indices
    "MPI_Startall", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Testall", "MPI_Testany",
    "MPI_Testsome", "MPI_Request_get_status_all", "MPI_Request_get_status_any",
    "MPI_Request_get_status_some",
    # arrays.c: arrays of datatype handles, LOGICAL arrays, strings with lengths in/out
    "MPI_Type_create_struct", "MPI_Type_get_contents", "MPI_Alltoallw", "MPI_Ialltoallw",
    "MPI_Alltoallw_init", "MPI_Neighbor_alltoallw", "MPI_Ineighbor_alltoallw",
    "MPI_Neighbor_alltoallw_init", "MPI_Cart_create", "MPI_Cart_map", "MPI_Cart_get", "MPI_Cart_sub",
    "MPI_Info_get", "MPI_Info_get_string", "MPI_Session_get_nth_pset",
    # callbacks.c: user functions written in Fortran
    "MPI_Op_create", "MPI_Grequest_start", "MPI_Comm_create_errhandler", "MPI_Win_create_errhandler",
    "MPI_File_create_errhandler", "MPI_Session_create_errhandler", "MPI_Comm_create_keyval",
    "MPI_Type_create_keyval", "MPI_Win_create_keyval", "MPI_Keyval_create",
    # attributes.c: attribute values are INTEGER(KIND=MPI_ADDRESS_KIND) numbers
    "MPI_Comm_set_attr", "MPI_Comm_get_attr", "MPI_Type_set_attr", "MPI_Type_get_attr",
    "MPI_Win_set_attr", "MPI_Win_get_attr", "MPI_Attr_put", "MPI_Attr_get",
    # callbacks.c: MPI-1's error handler constructor (removed in MPI-3.0, a nodempi extension)
    "MPI_Errhandler_create",
    # legacy.c: the other removed MPI-1 routines, whose addresses, extents and displacements
    # are default INTEGERs in Fortran
    "MPI_Address", "MPI_Type_extent", "MPI_Type_lb", "MPI_Type_ub", "MPI_Type_hvector",
    "MPI_Type_hindexed", "MPI_Type_struct",
}

# Arguments that are MPI_Aint in C but a default INTEGER in Fortran (MPI-1's MPI_ADDRESS).
F_DEFAULT_INTEGER = {("MPI_Address", "address")}

# No Fortran binding in MPI-4/5 (C-only conversions and the tool interface), or left out here
# (README.md "Fortran" lists them).
NO_BINDING_PATTERNS = [r"_c$", r"^MPI_T_", r"_c2f$", r"_f2c$", r"_toint$", r"_fromint$",
                       r"^MPI_Status_[cf]2f", r"^MPI_Status_f08", r"^MPI_Register_datarep",
                       r"^MPI_Comm_spawn",  # argv arrays of Fortran strings: not written yet
                       r"^MPI_Abi_[gs]et_fortran_booleans"]  # LOGICALs of any kind: not written

LOGICAL_IN = {"commute", "reorder", "high"}
LOGICAL_IN_BY_FUNCTION = {("MPI_Status_set_cancelled", "flag"),
                          ("MPI_File_set_atomicity", "flag")}
LOGICAL_OUT = {"flag", "commute", "weighted"}

C_HEAD = '''/* bindings.c - the Fortran entry points (gfortran names: mpi_send_, pmpi_send_) of every MPI
 * function whose arguments follow the plain conversion rules of tools/dev/gen-fortran.py.
 * GENERATED by tools/dev/gen-fortran.py from include/mpi-prototypes.txt: edit the script (or
 * hand-write the function in another file of src/fortran), then rerun it. Each pmpi_x_ calls
 * the C MPI_X, so C profiling tools see Fortran calls too; mpi_x_ is a weak alias of it. */
#include <stdlib.h>

#include "fortran/fortran.h"
'''


def split_params(params):
    params = params.strip()
    if params in ("void", ""):
        return []
    return [p.strip() for p in params.split(",")]


def parse_param(p):
    """(base type, name, is_pointer, is_array, is_const)."""
    const = p.startswith("const ")
    if const:
        p = p[6:]
    m = re.match(r"^([\w ]+?)\s*(\*?)\s*(\w+)((?:\[\d*\])*)$", p)
    if not m:
        raise ValueError(p)
    base, star, name, arr = m.groups()
    return base, name, bool(star), arr, const


class Binding:
    def __init__(self, fname):
        self.fname = fname
        self.formals = []     # Fortran-side C parameters
        self.hidden = []      # hidden string lengths
        self.before = []      # statements before the call
        self.args = []        # arguments of the C call
        self.after = []       # statements after the call

    def add(self, param):
        base, name, ptr, arr, const = parse_param(param)
        c = "const " if const else ""
        fn = self.fname
        if base == "void" and ptr:
            self.formals.append(f"{c}void *{name}")
            self.args.append(f"f_buffer({name})")
        elif base == "char" and (ptr or arr):
            self.formals.append(f"{c}char *{name}")
            self.hidden.append(f"size_t {name}_len")
            if const:
                convert = "f_info_string_in" if name in ("key", "value") else "f_string_in"
                self.before.append(f"char *c_{name} = {convert}({name}, {name}_len);")
                self.args.append(f"c_{name}")
                self.after.append(f"free(c_{name});")
            else:
                self.before.append(f"char c_{name}[F_STRING_MAX];")
                self.args.append(f"c_{name}")
                self.after.append(f"if (*ierror == MPI_SUCCESS)\n"
                                  f"        f_string_out(c_{name}, {name}, {name}_len);")
        elif base == "MPI_Status":
            if arr:
                raise ValueError(f"{fn}: status array needs a hand-written binding")
            self.formals.append(f"{c}MPI_Fint *{name}")
            self.args.append(f"f_status({name})")
        elif base in HANDLES:
            kind = HANDLES[base]
            if arr:
                raise ValueError(f"{fn}: handle array needs a hand-written binding")
            if ptr:
                self.formals.append(f"MPI_Fint *{name}")
                self.before.append(f"{base} c_{name} = MPI_{kind}_fromint(*{name});")
                self.args.append(f"&c_{name}")
                self.after.append(f"*{name} = MPI_{kind}_toint(c_{name});")
            else:
                self.formals.append(f"const MPI_Fint *{name}")
                self.args.append(f"MPI_{kind}_fromint(*{name})")
        elif base in SCALARS:
            ftype = SCALARS[base]
            if arr == "[][3]":
                self.formals.append(f"MPI_Fint {name}[][3]")
                self.args.append(name)
            elif arr or ptr:
                if base == "int" and name in LOGICAL_OUT and ptr:
                    self.formals.append(f"MPI_Fint *{name}")
                    self.before.append(f"int c_{name} = 0;")
                    self.args.append(f"&c_{name}")
                    self.after.append(f"*{name} = f_to_logical(c_{name});")
                elif name.endswith("weights"):
                    self.formals.append(f"{c}MPI_Fint *{name}")
                    self.args.append(f"f_weights({name})")
                else:
                    self.formals.append(f"{c}{ftype} *{name}")
                    self.args.append(name)
            else:
                self.formals.append(f"const {ftype} *{name}")
                if base == "int" and (name in LOGICAL_IN or (fn, name) in LOGICAL_IN_BY_FUNCTION):
                    self.args.append(f"f_logical_in(*{name})")
                else:
                    self.args.append(f"*{name}")
        else:
            raise ValueError(f"{fn}: no rule for parameter '{param}'")

    def text(self):
        lower = self.fname.lower()
        formals = self.formals + ["MPI_Fint *ierror"] + self.hidden
        out = [wrap_call(f"void p{lower}_(", formals, ")") + "\n{\n"]
        for s in self.before:
            out.append(f"    {s}\n")
        out.append(wrap_call(f"    *ierror = {self.fname}(", self.args, ");") + "\n")
        for s in self.after:
            out.append(f"    {s}\n")
        out.append(f"}}\n#pragma weak {lower}_ = p{lower}_\n\n")
        return "".join(out)


def wrap_call(head, items, tail, width=100):
    """head + items joined by ', ' + tail, continued under the first item past width columns
    (the layout clang-format gives the hand-written files)."""
    lines, current = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else tail)
        sep = "" if current.endswith("(") or current.strip() == "" else " "
        if len(current) + len(sep) + len(piece) > width and current.strip() and \
                not current.endswith("("):
            lines.append(current)
            current = " " * len(head) + piece
        else:
            current += sep + piece
    if not items:
        current += tail
    lines.append(current)
    return "\n".join(lines)


def functions():
    for line in protos.read_text().splitlines():
        m = re.match(r"^(\w+)\s+(MPI_\w+)\((.*)\);$", line)
        if m:
            yield m.group(1), m.group(2), split_params(m.group(3))


def has_no_binding(name):
    return any(re.search(p, name) for p in NO_BINDING_PATTERNS)


def write_bindings():
    out = [C_HEAD, "\n"]
    generated = 0
    for ret, name, params in functions():
        if has_no_binding(name) or name in HAND:
            continue
        if ret != "int":
            sys.exit(f"{name} returns {ret}: add it to HAND")
        b = Binding(name)
        for p in params:
            b.add(p)
        out.append(b.text())
        generated += 1
    (root / "src" / "fortran" / "bindings.c").write_text("".join(out))
    return generated


# ---------------------------------------------------------------------------------------------
# mpif.h

F_HEAD = """! mpif.h - nodempi constants for Fortran (`include 'mpif.h'`; the module `mpi` includes it).
! GENERATED by tools/dev/gen-fortran.py from include/mpi-abi-constants.tsv: the values are the
! MPI-5.0 ABI's integer handles and constants. Written so that fixed and free source form both
! read it (statements from column 7, no line longer than 72 columns, no continuation lines).
"""

# Fortran-only constants (the standard's names; kinds are gfortran's sizes of MPI_Aint,
# MPI_Offset and MPI_Count, all 8 bytes on the 64-bit targets nodempi runs on).
F_EXTRA_INTS = [
    ("MPI_ADDRESS_KIND", 8), ("MPI_OFFSET_KIND", 8), ("MPI_COUNT_KIND", 8),
    ("MPI_INTEGER_KIND", 4), ("MPI_STATUS_SIZE", 8), ("MPI_SOURCE", 1), ("MPI_TAG", 2),
    ("MPI_ERROR", 3),
]

# Addresses the C side recognises: each is a variable alone in a common block whose symbol
# src/fortran/sentinels.c defines.
F_SENTINELS = [
    ("MPI_BOTTOM", "integer", "", "mpi_fortran_bottom"),
    ("MPI_IN_PLACE", "integer", "", "mpi_fortran_in_place"),
    ("MPI_BUFFER_AUTOMATIC", "integer", "", "mpi_fortran_buffer_automatic"),
    ("MPI_STATUS_IGNORE", "integer", "(MPI_STATUS_SIZE)", "mpi_fortran_status_ignore"),
    ("MPI_STATUSES_IGNORE", "integer", "(MPI_STATUS_SIZE,1)", "mpi_fortran_statuses_ignore"),
    ("MPI_ERRCODES_IGNORE", "integer", "(1)", "mpi_fortran_errcodes_ignore"),
    ("MPI_UNWEIGHTED", "integer", "(1)", "mpi_fortran_unweighted"),
    ("MPI_WEIGHTS_EMPTY", "integer", "(1)", "mpi_fortran_weights_empty"),
    ("MPI_ARGV_NULL", "character*1", "(1)", "mpi_fortran_argv_null"),
    ("MPI_ARGVS_NULL", "character*1", "(1,1)", "mpi_fortran_argvs_null"),
]

# Predefined callbacks: Fortran procedures src/fortran/callbacks.c defines.
F_EXTERNALS = [
    "MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN", "MPI_COMM_NULL_COPY_FN",
    "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN", "MPI_TYPE_NULL_COPY_FN",
    "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN", "MPI_WIN_NULL_COPY_FN",
    "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN", "MPI_CONVERSION_FN_NULL",
]


def constant_value(value, known):
    m = re.match(r"^\(\(MPI_(\w+)\)(0x[0-9a-fA-F]+|-?\d+)\)$", value)
    if m:
        return m.group(1), int(m.group(2), 0)
    if value in known:
        return known[value]
    if re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", value):
        return "int", int(value, 0)
    return None, None


def legacy_ints():
    """(name, number) of the integer constants and handles of include/mpi-legacy.tsv."""
    out = []
    for line in legacy.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("name\t"):
            continue
        name, value, kind = line.split("\t")
        ctype, number = constant_value(value, {})
        if kind != "typedef" and number is not None:
            out.append((name, number))
    return out


def write_mpif():
    ints, offsets, known = [], [], {}
    for line in tsv.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("name\t"):
            continue
        name, value, kind = line.split("\t")
        if kind == "typedef" or name.startswith("MPI_F_") or name.startswith("MPI_T_"):
            continue
        ctype, number = constant_value(value, known)
        if number is None:
            continue   # pointers (sentinels below) and callbacks (externals below)
        known[name] = (ctype, number)
        if ctype == "Offset":
            offsets.append((name, number))
        elif ctype == "int" or "MPI_" + ctype in HANDLES:
            ints.append((name, number))
    out = [F_HEAD]
    out.append("\n! Kinds, status layout (MPI_STATUS_SIZE integers, indices 1-based)\n")
    for name, number in F_EXTRA_INTS:
        out.append(f"      integer {name}\n      parameter ({name}={number})\n")
    out.append("\n! Constants and predefined handles (the ABI's values)\n")
    for name, number in ints:
        out.append(f"      integer {name}\n      parameter ({name}={number})\n")
    for name, number in offsets:
        out.append(f"      integer(kind=MPI_OFFSET_KIND) {name}\n"
                   f"      parameter ({name}={number})\n")
    out.append("\n! nodempi extension, not in the MPI-5.0 ABI: MPI-1 names MPI-3.0 removed\n"
               "! (include/mpi-legacy.tsv)\n")
    for name, number in legacy_ints():
        out.append(f"      integer {name}\n      parameter ({name}={number})\n")
    out.append("      logical MPI_SUBARRAYS_SUPPORTED\n"
               "      parameter (MPI_SUBARRAYS_SUPPORTED=.false.)\n"
               "      logical MPI_ASYNC_PROTECTS_NONBLOCKING\n"
               "      parameter (MPI_ASYNC_PROTECTS_NONBLOCKING=.false.)\n")
    out.append("\n! Special addresses (src/fortran/sentinels.c)\n")
    for name, ftype, dims, block in F_SENTINELS:
        out.append(f"      {ftype} {name}{dims}\n      common /{block}/ {name}\n")
    out.append("\n! Predefined callbacks and functions (src/fortran/callbacks.c, runtime.c)\n")
    for name in F_EXTERNALS:
        out.append(f"      external {name}\n")
    out.append("      double precision MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK\n"
               "      external MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK\n"
               "      integer(kind=MPI_ADDRESS_KIND) MPI_AINT_ADD, MPI_AINT_DIFF\n"
               "      external MPI_AINT_ADD, MPI_AINT_DIFF\n")
    for line in "".join(out).splitlines():
        if len(line) > 72 and not line.startswith("!"):
            sys.exit(f"mpif.h line longer than 72 columns: {line}")
    (root / "include" / "mpif.h").write_text("".join(out))
    return len(ints) + len(offsets)


# ---------------------------------------------------------------------------------------------
# src/fortran/mpi.f90: the module. It includes mpif.h and declares explicit interfaces for the
# routines with choice buffers, whose buffer and default-INTEGER arguments take any type, kind
# and rank (gfortran's NO_ARG_CHECK); the number of arguments, their KIND=MPI_ADDRESS_KIND /
# MPI_OFFSET_KIND integers, LOGICALs and strings are checked. The other routines stay external
# as in mpif.h.

MODULE_HEAD = """! mpi.f90 - the module `mpi`: mpif.h's constants, special addresses and external procedures,
! plus explicit interfaces for the routines with choice buffers, so one program may pass
! INTEGER, REAL, ... buffers to MPI_SEND without -fallow-argument-mismatch, and the generic
! MPI_SIZEOF.
! GENERATED by tools/dev/gen-fortran.py from include/mpi-prototypes.txt: rerun it after edits.
module mpi
    implicit none
    include 'mpif.h'
    ! TYPE(MPI_Status) as in mpi_f08 (the same BIND(C) type), for MPI_STATUS_F082F/F2F08.
    type, bind(C) :: MPI_Status
        integer :: MPI_SOURCE, MPI_TAG, MPI_ERROR
        integer, private :: mpi_abi_slot(MPI_STATUS_SIZE - 3)
    end type MPI_Status
    interface
        subroutine MPI_Status_f082f(f08_status, f_status, ierror)
            import :: MPI_Status, MPI_STATUS_SIZE
            implicit none
            type(MPI_Status), intent(in) :: f08_status
            integer, intent(out) :: f_status(MPI_STATUS_SIZE)
            integer :: ierror
        end subroutine MPI_Status_f082f
        subroutine MPI_Status_f2f08(f_status, f08_status, ierror)
            import :: MPI_Status, MPI_STATUS_SIZE
            implicit none
            integer, intent(in) :: f_status(MPI_STATUS_SIZE)
            type(MPI_Status), intent(out) :: f08_status
            integer :: ierror
        end subroutine MPI_Status_f2f08
"""

# MPI_SIZEOF: one specific per type and kind (src/fortran/sizeof.c answers each).
SIZEOF_SPECIFICS = [("integer", k) for k in (1, 2, 4, 8, 16)] + \
    [("real", k) for k in (4, 8, 10, 16)] + [("complex", k) for k in (4, 8, 10, 16)] + \
    [("logical", k) for k in (1, 2, 4, 8)] + [("character", None)]


def sizeof_interface():
    out = ["    end interface\n", "    interface MPI_Sizeof\n"]
    for ftype, kind in SIZEOF_SPECIFICS:
        name = f"MPI_Sizeof_{ftype}{kind or ''}"
        decl = "character(len=*)" if kind is None else f"{ftype}(kind={kind})"
        out.append(f"        subroutine {name}(x, size, ierror)\n"
                   f"            implicit none\n"
                   f"            {decl}, dimension(..) :: x\n"
                   f"            integer :: size, ierror\n"
                   f"        end subroutine {name}\n")
    return "".join(out)


MODULE_TAIL = """    end interface
end module mpi
"""

F_KINDS = {"MPI_Aint": "integer(kind=MPI_ADDRESS_KIND)", "MPI_Offset":
           "integer(kind=MPI_OFFSET_KIND)", "MPI_Count": "integer(kind=MPI_COUNT_KIND)"}


def fortran_declaration(fname, param):
    """The Fortran declaration of one C parameter in an interface body."""
    base, name, ptr, arr, const = parse_param(param)
    if base == "void":
        return f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {name}\n            type(*), dimension(*) :: {name}"
    if base == "char":
        return f"character(len=*) :: {name}"
    if base == "MPI_Status":
        return f"integer :: {name}(MPI_STATUS_SIZE{', *' if arr else ''})"
    dims = "(3, *)" if arr == "[][3]" else "(*)" if arr else ""
    if base in F_KINDS and (fname, name) not in F_DEFAULT_INTEGER:
        return f"{F_KINDS[base]} :: {name}{dims}"
    logical = base == "int" and not arr and (
        (ptr and name in LOGICAL_OUT) or
        (not ptr and (name in LOGICAL_IN or (fname, name) in LOGICAL_IN_BY_FUNCTION)))
    if logical:
        return f"logical :: {name}"
    # Default INTEGERs (counts, displacements, handles) take scalars and arrays alike: programs
    # pass `0` for the ignored send arrays of MPI_IN_PLACE calls, or an array element's row.
    return (f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {name}\n"
            f"            integer :: {name}{dims}")


def wrap_free_form(line, width=100):
    """Split a long statement at commas with free-form '&' continuations."""
    pieces, current = [], ""
    for word in line.split(", "):
        candidate = f"{current}, {word}" if current else word
        if len(candidate) > width - 3 and current:
            pieces.append(current + ", &")
            current = " " * 16 + word
        else:
            current = candidate
    pieces.append(current)
    return "\n".join(pieces)


def is_choice(param):
    """A choice buffer (attribute values and extra state are address-sized numbers)."""
    m = re.search(r"\bvoid \*(\w+)$", param)
    return bool(m) and m.group(1) not in ("attribute_val", "extra_state")


def write_module():
    out = [MODULE_HEAD]
    count = 0
    for ret, name, params in functions():
        if has_no_binding(name) or ret != "int":
            continue
        if not any(is_choice(p) for p in params):
            continue
        names = [parse_param(p)[1] for p in params] + ["ierror"]
        out.append(wrap_free_form(f"        subroutine {name}({', '.join(names)})") + "\n")
        out.append("            import :: MPI_ADDRESS_KIND, MPI_OFFSET_KIND, MPI_COUNT_KIND, "
                   "MPI_STATUS_SIZE\n            implicit none\n")
        for p in params:
            decl = fortran_declaration(name, p)
            if decl.startswith("!GCC$"):
                out.append(decl + "\n")
            else:
                out.append(f"            {decl}\n")
        out.append("            integer :: ierror\n")
        out.append(f"        end subroutine {name}\n")
        count += 1
    out.append(sizeof_interface())
    out.append(MODULE_TAIL)
    (root / "src" / "fortran" / "mpi.f90").write_text("".join(out))
    return count


def main():
    n = write_bindings()
    c = write_mpif()
    m = write_module()
    print(f"src/fortran/bindings.c: {n} functions; include/mpif.h: {c} constants; "
          f"src/fortran/mpi.f90: {m} interfaces", file=sys.stderr)


if __name__ == "__main__":
    main()
