#!/usr/bin/env python3
"""Writes the Fortran 2008 interface of nodempi (`use mpi_f08`, MPI-4.1 chapter 19):

  src/fortran/mpi_f08.f90      the module: handle types (TYPE(MPI_Comm) ... with one INTEGER
                               MPI_VAL, the same number as module mpi's handle), TYPE(MPI_Status),
                               the constants, the special addresses, the user function
                               interfaces, == and /= on handles, and one generic interface per
                               MPI routine;
  src/fortran/bindings_f08.c   the C entry points those interfaces name.

Each routine MPI_X of the module is a generic (and PMPI_X its profiling twin) whose specific is
an existing Fortran entry point reached through a thin C wrapper, so mpi_f08 adds no conversion
rules of its own:
  - routines without a choice buffer: specific MPI_X_f08, an ordinary gfortran procedure
    (arguments by reference, hidden string lengths; a handle type is its one INTEGER, a status
    is MPI_STATUS_SIZE INTEGERs), so pmpi_x_f08_ passes everything to module mpi's pmpi_x_;
  - routines with choice buffers: specific MPI_X_f08ts, BIND(C, name="MPI_X_f08ts") with
    TYPE(*), DIMENSION(..) buffers, which arrive as ISO_Fortran_binding.h descriptors;
    PMPI_X_f08ts passes each buffer's address to pmpi_x_. MPI_SUBARRAYS_SUPPORTED is .TRUE.:
    a non-contiguous section means the contiguous copy of its elements (MPI-4.1 19.1.12). A
    blocking routine gets such a copy, packed around the call (f08_choice_in/out,
    src/fortran/f08.c); buffers MPI keeps using after the call (ASYNCHRONOUS: nonblocking,
    persistent, RMA, nonblocking and split I/O, partitioned) cannot be copies: the call gets the
    section's first element with a datatype made from the descriptor in place of its (count,
    datatype), freed after the call (src/fortran/f08_section.c; section_plan says which
    arguments go together). Buffers that must be plain memory (attached buffers, window memory)
    and the ALLTOALLW family refuse a non-contiguous section with MPI_ERR_BUFFER.
  - large-count routines MPI_X_c join the generic MPI_X as MPI_X_c_f08(ts) where their argument
    kinds tell them apart; their mpi-style entry point is written here, static, by
    gen-fortran.py's Binding rules (module mpi has no large-count routines).
The optional IERROR arrives as NULL when absent. Which routines exist is decided by
gen-fortran.py's tables (NO_BINDING) and the C entry points found in src/fortran/*.c, so run
gen-fortran.py first; tests/abi/check_exports.sh checks the committed files are up to date."""
import importlib.util
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gen_fortran", Path(__file__).parent /
                                               "gen-fortran.py")
gf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gf)

# Arguments of the Fortran routine where it differs from the C prototype.
F08_PARAMS = {
    "MPI_Init": [],
    "MPI_Init_thread": ["int required", "int *provided"],
    "MPI_Info_create_env": ["MPI_Info *info"],
    "MPI_Pcontrol": ["const int level"],
}
# Routines with no IERROR, bound directly to module mpi's entry point (functions and
# MPI_Pcontrol): Fortran declaration of the result, or None for a subroutine.
DIRECT = {"MPI_Wtime": "double precision", "MPI_Wtick": "double precision",
          "MPI_Aint_add": "integer(kind=MPI_ADDRESS_KIND)",
          "MPI_Aint_diff": "integer(kind=MPI_ADDRESS_KIND)", "MPI_Pcontrol": None}
# Hand-written in src/fortran/f08.c: the detach routines return the buffer's address as a
# TYPE(C_PTR) in mpi_f08 (module mpi's cannot).
F08_HAND = {"MPI_Buffer_detach", "MPI_Comm_detach_buffer", "MPI_Session_detach_buffer"}
# Not in mpi_f08 here: choice buffers together with strings (a BIND(C) string is a descriptor
# too; README.md "Fortran" lists these).
F08_LEFT_OUT = {"MPI_Pack_external", "MPI_Unpack_external"}
# The MPI-1 routines MPI-3.0 removed (mpif.h and module mpi keep them for old programs): mpi_f08
# came after their removal and never had them.
F08_LEFT_OUT |= {"MPI_Address", "MPI_Type_extent", "MPI_Type_lb", "MPI_Type_ub",
                 "MPI_Type_hvector", "MPI_Type_hindexed", "MPI_Type_struct",
                 "MPI_Errhandler_create", "MPI_Errhandler_get", "MPI_Errhandler_set"}

# Buffers that MPI uses after the call returns (besides those of routines with a request).
ASYNC_ROUTINES = {
    "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
    "MPI_Compare_and_swap", "MPI_Win_create", "MPI_Win_attach", "MPI_Win_detach",
    "MPI_Buffer_attach", "MPI_Comm_attach_buffer", "MPI_Session_attach_buffer",
    "MPI_Get_address", "MPI_Free_mem",
}
# Only the address matters, so any array (section) will do.
ADDRESS_ONLY = {"MPI_Get_address", "MPI_Free_mem"}
# Buffers that must be plain memory MPI keeps using: a non-contiguous section is refused
# (MPI_ERR_BUFFER, f08_choice_in).
PLAIN_ROUTINES = {"MPI_Win_create", "MPI_Win_attach", "MPI_Win_detach", "MPI_Buffer_attach",
                  "MPI_Comm_attach_buffer", "MPI_Session_attach_buffer"}
# One datatype for several one-element buffers: a section is fine when the data lies in its
# first element (f08_section_first).
FIRST_ROUTINES = {"MPI_Fetch_and_op", "MPI_Compare_and_swap"}
# sendbuf and recvbuf share one (count, datatype): f08_section_reduce. Value: whether the
# count is per block (the reduce_scatter routines) and whether recvbuf is used at the root
# alone (MPI_Ireduce).
REDUCE_ROUTINES = {
    "MPI_Ireduce": (False, True), "MPI_Reduce_init": (False, True),
    "MPI_Iallreduce": (False, False), "MPI_Allreduce_init": (False, False),
    "MPI_Iscan": (False, False), "MPI_Scan_init": (False, False),
    "MPI_Iexscan": (False, False), "MPI_Exscan_init": (False, False),
    "MPI_Ireduce_scatter": (True, False), "MPI_Reduce_scatter_init": (True, False),
    "MPI_Ireduce_scatter_block": (True, False), "MPI_Reduce_scatter_block_init": (True, False),
}
# The (count, datatype) arguments that describe a choice buffer.
SECTION_ARGS = {"buf": ("count", "datatype"), "buffer": ("count", "datatype"),
                "origin_addr": ("origin_count", "origin_datatype"),
                "result_addr": ("result_count", "result_datatype"),
                "sendbuf": ("sendcount", "sendtype"), "recvbuf": ("recvcount", "recvtype")}
LOGICAL_ARRAYS = {"periods", "remain_dims"}
C_PTR_ARGS = {"baseptr", "buffer_addr"}
# MPI-1's attribute routines keep default INTEGER values.
INT_ATTRIBUTES = {"MPI_Attr_put", "MPI_Attr_get", "MPI_Keyval_create"}

F_KIND = {"int": "integer", "MPI_Aint": "integer(kind=MPI_ADDRESS_KIND)",
          "MPI_Offset": "integer(kind=MPI_OFFSET_KIND)",
          "MPI_Count": "integer(kind=MPI_COUNT_KIND)"}


def is_async(name, params):
    if name in ASYNC_ROUTINES or re.match(r"^MPI_File_\w+_(begin|end)$", name):
        return True
    return any(re.match(r"^MPI_Request \*request$", p) for p in params)


def section_plan(name, params):
    """How each choice buffer of a routine that MPI keeps using after the call (is_async)
    reaches the C library: buffer -> (kind, count, datatype), kind one of
      "plain"   refused when not contiguous (PLAIN_ROUTINES, and the alltoallw routines,
                whose per-process datatypes and byte displacements nodempi does not map);
      "address" the address alone (a split collective's _end: its begin had the datatype);
      "first"   FIRST_ROUTINES;
      "whole"   count datatypes: the call gets (address, 1, new type);
      "blocks"  one block of count datatypes per process or partition (MPI_Ialltoall,
                gather's recvbuf, scatter's sendbuf, MPI_Psend_init): (address, 1, new type)
                with the type's extent the distance between blocks;
      "units"   counts and displacements in datatypes (the v collectives): the same with
                blocks of one datatype, and the counts kept;
    and "reduce" for REDUCE_ROUTINES (f08_section_reduce, one type for both buffers)."""
    base = name.removesuffix("_c")
    low = base.lower()
    names = [gf.parse_param(p)[1] for p in params]
    plan = {}
    for n in choice_params(params):
        if base in PLAIN_ROUTINES or "alltoallw" in low:
            plan[n] = ("plain", None, None)
        elif re.match(r"^MPI_File_\w+_end$", base):
            plan[n] = ("address", None, None)
        elif base in FIRST_ROUTINES:
            plan[n] = ("first", None, "datatype")
        elif base in REDUCE_ROUTINES:
            count = next(c for c in ("count", "recvcount", "recvcounts") if c in names)
            plan[n] = ("reduce", count, "datatype")
        else:
            count, datatype = SECTION_ARGS[n]
            if count not in names:
                count += "s"
            if count.endswith("counts"):
                kind = "units"
            elif ("alltoall" in low or ("gather" in low and n == "recvbuf") or
                  ("scatter" in low and n == "sendbuf") or "partitions" in names):
                kind = "blocks"
            else:
                kind = "whole"
            plan[n] = (kind, count, datatype)
    return plan


def choice_params(params):
    return [gf.parse_param(p)[1] for p in params
            if gf.is_choice(p) and gf.parse_param(p)[1] not in C_PTR_ARGS]


# ---------------------------------------------------------------------------------------------
# The C entry points of module mpi, read from src/fortran/*.c: name -> (return type, formals).

def entry_points():
    found = {}
    for path in sorted((root / "src" / "fortran").glob("*.c")):
        if path.name != "bindings_f08.c":
            found.update(definitions(path.read_text()))
    return found


def definitions(text):
    """The functions pmpi_x_ that text defines: name -> (return type, formals)."""
    found = {}
    for m in re.finditer(r"^(?:static )?(void|double|MPI_Aint) (pmpi_\w+_)\(", text, re.M):
        depth, end = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        if not text.startswith(")\n{", end - 1):
            continue    # a declaration, not the definition
        formals = [" ".join(f.split()) for f in split_formals(text[m.end():end - 1])]
        found[m.group(2)] = (m.group(1), formals)
    return found


def large_count_entry(name):
    """Module mpi has no large-count routines: their mpi-style entry point (gen-fortran.py's
    rules) is written here, static, for the mpi_f08 wrapper to call; None when the rules do
    not cover its arguments."""
    binding = gf.Binding(name)
    try:
        for p in functions_by_name[name]:
            binding.add(p)
    except ValueError:
        return None
    text = binding.text()
    formals = definitions(text)[f"p{name.lower()}_"][1]
    body = text.partition("\n{\n")[2]
    return (gf.wrap_call(f"static void p{name.lower()}_(", formals, ")") + "\n{\n" +
            re.sub(r"#pragma weak .*\n", "", body))


def split_formals(text):
    """Split at top-level commas (a function pointer formal has parentheses)."""
    out, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    if current.strip():
        out.append(current.strip())
    return out


def formal_name(formal):
    m = re.search(r"\(\*(\w+)\)\(.*\)$", formal)
    if m:
        return m.group(1)
    return re.search(r"(\w+)(\[\]|\[\]\[3\])?$", formal).group(1)


# ---------------------------------------------------------------------------------------------
# src/fortran/bindings_f08.c

C_HEAD = '''/* bindings_f08.c - the C entry points of the module mpi_f08 (src/fortran/mpi_f08.f90): each
 * passes its arguments on to module mpi's entry point of the same routine, with IERROR
 * optional (NULL when absent) and choice buffers as Fortran descriptors, whose address must
 * be contiguous. GENERATED by tools/dev/gen-fortran-f08.py: edit the script, then rerun it.
 * pmpi_x_f08_ / PMPI_X_f08ts are the profiling names, mpi_x_f08_ / MPI_X_f08ts weak aliases. */
#include <stdlib.h>

#include "fortran/f08.h"
#include "fortran/f08_section.h"

'''


def c_function(name, params, ret, formals, declare=True):
    lower = name.lower()
    choices = choice_params(params)
    names = [formal_name(f) for f in formals]
    if "ierror" not in names:
        sys.exit(f"{name}: the entry point has no ierror")
    if choices:
        fname, alias = f"P{name}_f08ts", f"{name}_f08ts"
        new_formals = []
        for f, n in zip(formals, names):
            new_formals.append(f"CFI_cdesc_t *{n}" if n in choices else f)
    else:
        fname, alias = f"p{lower}_f08_", f"{lower}_f08_"
        new_formals = formals
    if choices and name not in ADDRESS_ONLY and is_async(name.removesuffix("_c"), params):
        body, args, after = section_code(name, params, formals, names)
    else:
        body, args, after = copy_code(name, params, names, choices)
    out = [gf.wrap_call(f"void p{lower}_(", formals, ");") + "\n"] if declare else []
    out.append(gf.wrap_call(f"void {fname}(", new_formals, ")") + "\n{\n")
    out.extend(body)
    out.append("    MPI_Fint f08_error = MPI_SUCCESS;\n")
    out.append(gf.wrap_call(f"    p{lower}_(", args, ");") + "\n")
    out.extend(after)
    out.append("    f08_set_ierror(ierror, f08_error);\n")
    out.append(f"}}\n#pragma weak {alias} = {fname}\n\n")
    return "".join(out)


def copy_code(name, params, names, choices):
    """Blocking routines: a non-contiguous buffer is packed into a copy around the call
    (f08_choice_in/out); ADDRESS_ONLY routines take the address as it is."""
    written = {gf.parse_param(p)[1]: not gf.parse_param(p)[4] for p in params}
    body, args, after = [], [], []
    for n in names:
        if n in choices:
            args.append(f"c_{n}" if name in ADDRESS_ONLY else f"c_{n}.address")
        else:
            args.append("&f08_error" if n == "ierror" else n)
    if name in ADDRESS_ONLY:
        body.extend(f"    void *c_{n} = {n}->base_addr;\n" for n in choices)
        return body, args, after
    if choices:
        body.append(f"    struct f08_choice {', '.join('c_' + n for n in choices)};\n")
    for i, n in enumerate(choices):
        release = "".join(f"        f08_choice_out(&c_{m}, {m}, false);\n" for m in choices[:i])
        test = gf.wrap_call("    if (!f08_choice_in(", [
            f"&c_{n}", n, "true", f'"{name}"', f'"{n}"', "ierror"], "))", width=98)
        body.append(f"{test} {{\n{release}        return;\n    }}\n" if release else
                    f"{test}\n        return;\n")
        after.append(f"    f08_choice_out(&c_{n}, {n}, {'true' if written[n] else 'false'});\n")
    return body, args, after


def section_code(name, params, formals, names):
    """Routines that MPI keeps using the buffers of after the call: a non-contiguous section
    is described by a new datatype (src/fortran/f08_section.c), freed after the call."""
    plan = section_plan(name, params)
    large = {formal_name(f): "MPI_Count" in f for f in formals}
    body, args, after = [], [], []
    replaced = {}   # count or datatype argument -> what the call gets instead
    sections = [n for n, (kind, _, _) in plan.items() if kind not in ("plain", "address")]
    plain = [n for n, (kind, _, _) in plan.items() if kind == "plain"]
    if plain:
        body.append(f"    struct f08_choice {', '.join('c_' + n for n in plain)};\n")
    if "reduce" in [kind for kind, _, _ in plan.values()]:
        blocks, rooted = REDUCE_ROUTINES[name.removesuffix("_c")]
        count = plan["recvbuf"][1]
        unit = "1" if count.endswith("counts") else f"*{count}"
        roles = "f08_reduce_roles_rooted(root, comm)" if rooted else "f08_reduce_roles_all()"
        body.append("    struct f08_section s_recvbuf;\n    void *send_address;\n")
        fold = not name.removesuffix("_c").endswith("_init") and not blocks
        body.append(gf.wrap_call("    if (!f08_section_reduce(", [
            "&s_recvbuf", "&send_address", "sendbuf", "recvbuf", roles, unit, "*datatype",
            "true" if blocks else "false", "true" if fold else "false", f'"{name}"', "ierror"],
            "))") + "\n        return;\n")
        if unit != "1":
            replaced[count] = f"f08_section_count{'_c' if large[count] else ''}(&s_recvbuf, {count})"
        replaced["datatype"] = "f08_section_datatype(&s_recvbuf, datatype)"
        after.append("    f08_section_free(&s_recvbuf);\n")
        done = {"sendbuf": "send_address", "recvbuf": "s_recvbuf.address"}
    else:
        done = {}
        if sections:
            body.append(f"    struct f08_section {', '.join('s_' + n for n in sections)};\n")
        prior = []
        for n, (kind, count, datatype) in plan.items():
            if kind == "address":
                done[n] = f"{n}->base_addr"
                continue
            if kind == "plain":
                test = gf.wrap_call("    if (!f08_choice_in(", [
                    f"&c_{n}", n, "false", f'"{name}"', f'"{n}"', "ierror"], "))", width=98)
                done[n] = f"c_{n}.address"
            else:
                function = {"first": "f08_section_first", "whole": "f08_section_whole",
                            "blocks": "f08_section_blocks", "units": "f08_section_blocks"}[kind]
                unit = "1" if kind in ("first", "units") else f"*{count}"
                test = gf.wrap_call(f"    if (!{function}(", [
                    f"&s_{n}", n, unit, f"*{datatype}", f'"{name}"', f'"{n}"', "ierror"], "))", width=98)
                done[n] = f"s_{n}.address"
                if kind in ("whole", "blocks"):
                    suffix = "_c" if large[count] else ""
                    replaced[count] = f"f08_section_count{suffix}(&s_{n}, {count})"
                if kind != "first":
                    replaced[datatype] = f"f08_section_datatype(&s_{n}, {datatype})"
                after.append(f"    f08_section_free(&s_{n});\n")
            release = "".join(f"        f08_section_free(&s_{m});\n" for m in prior)
            body.append(f"{test} {{\n{release}        return;\n    }}\n" if release else
                        f"{test}\n        return;\n")
            if kind != "plain":
                prior.append(n)
    for n in names:
        if n in done:
            args.append(done[n])
        elif n in replaced:
            args.append(replaced[n])
        else:
            args.append("&f08_error" if n == "ierror" else n)
    return body, args, after


# ---------------------------------------------------------------------------------------------
# src/fortran/mpi_f08.f90

def f_declaration(fname, param, asynchronous):
    """The Fortran declaration of one argument in an mpi_f08 interface."""
    base, name, ptr, arr, const = gf.parse_param(param)
    intent_in = ", intent(in)" if const or not (ptr or arr) else ""
    if base == "void":
        if name in C_PTR_ARGS:
            return f"type(c_ptr) :: {name}"
        if name in ("attribute_val", "extra_state"):
            kind = "integer" if fname in INT_ATTRIBUTES else "integer(kind=MPI_ADDRESS_KIND)"
            return f"{kind} :: {name}"
        attrs = "type(*), dimension(..)" + (", intent(in)" if const else "")
        attrs += ", asynchronous" if asynchronous else ""
        return f"{attrs} :: {name}"
    if base == "char":
        return f"character(len=*){intent_in} :: {name}"
    if base == "MPI_Status":
        return f"type(MPI_Status){intent_in} :: {name}{'(*)' if arr else ''}"
    if base in gf.HANDLES:
        return f"type({base}){intent_in} :: {name}{'(*)' if arr else ''}"
    if base.endswith("_function"):
        return f"procedure({base}) :: {name}"
    if base in F_KIND:
        dims = "(3, *)" if arr == "[][3]" else "(*)" if arr else ""
        logical = base == "int" and (
            (arr and name in LOGICAL_ARRAYS) or
            (not arr and ptr and name in gf.LOGICAL_OUT) or
            (not arr and not ptr and (name in gf.LOGICAL_IN or
                                      (fname, name) in gf.LOGICAL_IN_BY_FUNCTION)))
        ftype = "logical" if logical else F_KIND[base]
        return f"{ftype}{intent_in} :: {name}{dims}"
    sys.exit(f"{fname}: no Fortran rule for '{param}'")


def f_specific(base, cname, params, choices, prefix):
    """One specific procedure: base names the routine (MPI_Send), cname its C function
    (MPI_Send or MPI_Send_c), prefix is "" or "P" (the profiling interface)."""
    asynchronous = is_async(base, params)
    names = [gf.parse_param(p)[1] for p in params] + ["ierror"]
    if choices:
        specific = f"{prefix}{cname}_f08ts"
        head = f"subroutine {specific}({', '.join(names)}) bind(C, name=\"{specific}\")"
    else:
        specific = f"{prefix}{cname}_f08"
        head = f"subroutine {specific}({', '.join(names)})"
    out = [gf.wrap_free_form(f"        {head}") + "\n",
           "            import\n            implicit none\n"]
    for p in params:
        out.append(f"            {f_declaration(base, p, asynchronous)}\n")
    out.append("            integer, optional, intent(out) :: ierror\n")
    out.append(f"        end subroutine {specific}\n")
    return "".join(out)


def f_interface(generic, specifics):
    return f"    interface {generic}\n" + "".join(specifics) + f"    end interface {generic}\n"


def tkr(base, param):
    """Type, kind and rank of an argument as generic resolution sees them; None for
    TYPE(*), DIMENSION(..), which matches anything."""
    decl = f_declaration(base, param, False)
    if decl.startswith("type(*)"):
        return None
    ftype, _, rest = decl.partition(" :: ")
    ftype = ftype.split(", ")[0]
    ftype = re.sub(r"\(kind=MPI_\w+_KIND\)", "(8)", ftype)
    if ftype == "integer":
        ftype = "integer(4)"
    return ftype, "(" in rest


def distinguishable(base, params, large):
    """Whether the large-count specific can join the generic (MPI_Count and MPI_Aint are
    one kind here, so e.g. MPI_Type_get_extent_c looks like MPI_Type_get_extent)."""
    return any(a is not None and b is not None and a != b
               for a, b in zip([tkr(base, p) for p in params], [tkr(base, p) for p in large]))


def f_direct_interface(name, params, result):
    names = [gf.parse_param(p)[1] for p in params]
    kind = "function" if result else "subroutine"
    out = ["    interface\n", f"        {kind} {name}({', '.join(names)})\n",
           "            import\n            implicit none\n"]
    for p in params:
        out.append(f"            {f_declaration(name, p, False)}\n")
    if result:
        out.append(f"            {result} :: {name}\n")
    out.append(f"        end {kind} {name}\n    end interface\n")
    return "".join(out)


F_HEAD = """! mpi_f08.f90 - the module `mpi_f08` (MPI-4.1 chapter 19): handle types with an INTEGER
! MPI_VAL (module mpi's handle), TYPE(MPI_Status), constants, and one generic interface per
! routine, implemented by src/fortran/bindings_f08.c on top of module mpi's entry points.
! GENERATED by tools/dev/gen-fortran-f08.py from include/mpi-prototypes.txt and
! include/mpi-abi-constants.tsv: edit the script, then rerun it.
module mpi_f08
    use, intrinsic :: iso_c_binding, only: c_ptr
    implicit none

"""

HANDLE_TYPES = ["MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Request", "MPI_Info", "MPI_Op",
                "MPI_Errhandler", "MPI_Win", "MPI_File", "MPI_Message", "MPI_Session"]

# Special addresses: mpif.h's common blocks (src/fortran/sentinels.c).
F08_SENTINELS = [
    ("MPI_BOTTOM", "integer", "", "mpi_fortran_bottom"),
    ("MPI_IN_PLACE", "integer", "", "mpi_fortran_in_place"),
    ("MPI_BUFFER_AUTOMATIC", "integer", "", "mpi_fortran_buffer_automatic"),
    ("MPI_STATUS_IGNORE", "type(MPI_Status)", "", "mpi_fortran_status_ignore"),
    ("MPI_STATUSES_IGNORE", "type(MPI_Status)", "(1)", "mpi_fortran_statuses_ignore"),
    ("MPI_ERRCODES_IGNORE", "integer", "(1)", "mpi_fortran_errcodes_ignore"),
    ("MPI_UNWEIGHTED", "integer", "(1)", "mpi_fortran_unweighted"),
    ("MPI_WEIGHTS_EMPTY", "integer", "(1)", "mpi_fortran_weights_empty"),
]

# The user function interfaces of MPI-4.1 section 19.3.4 (C_PTR buffers by value for
# MPI_User_function; everything else by reference, as module mpi's).
ABSTRACT_INTERFACES = """    abstract interface
        subroutine MPI_User_function(invec, inoutvec, len, datatype)
            import
            type(c_ptr), value :: invec, inoutvec
            integer :: len
            type(MPI_Datatype) :: datatype
        end subroutine MPI_User_function
"""
for _obj, _type in [("Comm", "MPI_Comm"), ("Type", "MPI_Datatype"), ("Win", "MPI_Win")]:
    _kv = _obj.lower() + "_keyval"
    _o = {"Comm": "comm", "Type": "datatype", "Win": "win"}[_obj]
    ABSTRACT_INTERFACES += f"""        subroutine MPI_{_obj}_copy_attr_function(old{_o}, {_kv}, extra_state, &
                attribute_val_in, attribute_val_out, flag, ierror)
            import
            type({_type}) :: old{_o}
            integer :: {_kv}, ierror
            integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
            logical :: flag
        end subroutine MPI_{_obj}_copy_attr_function
        subroutine MPI_{_obj}_delete_attr_function({_o}, {_kv}, attribute_val, extra_state, &
                ierror)
            import
            type({_type}) :: {_o}
            integer :: {_kv}, ierror
            integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
        end subroutine MPI_{_obj}_delete_attr_function
"""
for _obj in ["Comm", "Win", "File", "Session"]:
    _o = _obj.lower()
    ABSTRACT_INTERFACES += f"""        subroutine MPI_{_obj}_errhandler_function({_o}, error_code)
            import
            type(MPI_{_obj}) :: {_o}
            integer :: error_code
        end subroutine MPI_{_obj}_errhandler_function
"""
ABSTRACT_INTERFACES += """        subroutine MPI_Copy_function(oldcomm, keyval, extra_state, attribute_val_in, &
                attribute_val_out, flag, ierror)
            import
            type(MPI_Comm) :: oldcomm
            integer :: keyval, extra_state, attribute_val_in, attribute_val_out, ierror
            logical :: flag
        end subroutine MPI_Copy_function
        subroutine MPI_Delete_function(comm, keyval, attribute_val, extra_state, ierror)
            import
            type(MPI_Comm) :: comm
            integer :: keyval, attribute_val, extra_state, ierror
        end subroutine MPI_Delete_function
        subroutine MPI_Grequest_query_function(extra_state, status, ierror)
            import
            integer(kind=MPI_ADDRESS_KIND) :: extra_state
            type(MPI_Status) :: status
            integer :: ierror
        end subroutine MPI_Grequest_query_function
        subroutine MPI_Grequest_free_function(extra_state, ierror)
            import
            integer(kind=MPI_ADDRESS_KIND) :: extra_state
            integer :: ierror
        end subroutine MPI_Grequest_free_function
        subroutine MPI_Grequest_cancel_function(extra_state, complete, ierror)
            import
            integer(kind=MPI_ADDRESS_KIND) :: extra_state
            logical :: complete
            integer :: ierror
        end subroutine MPI_Grequest_cancel_function
    end interface

"""

# Predefined callbacks (src/fortran/callbacks.c) with the interface they have.
F08_CALLBACKS = [
    ("MPI_Comm_copy_attr_function", ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_DUP_FN"]),
    ("MPI_Comm_delete_attr_function", ["MPI_COMM_NULL_DELETE_FN"]),
    ("MPI_Type_copy_attr_function", ["MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_DUP_FN"]),
    ("MPI_Type_delete_attr_function", ["MPI_TYPE_NULL_DELETE_FN"]),
    ("MPI_Win_copy_attr_function", ["MPI_WIN_NULL_COPY_FN", "MPI_WIN_DUP_FN"]),
    ("MPI_Win_delete_attr_function", ["MPI_WIN_NULL_DELETE_FN"]),
    ("MPI_Copy_function", ["MPI_NULL_COPY_FN", "MPI_DUP_FN"]),
    ("MPI_Delete_function", ["MPI_NULL_DELETE_FN"]),
]


def f_types():
    out = ["\n    ! Handles: one INTEGER, the value module mpi uses for the same object.\n"]
    for t in HANDLE_TYPES:
        out.append(f"    type, bind(C) :: {t}\n        integer :: MPI_VAL\n    end type {t}\n")
    out.append("    ! The status: the C MPI_Status (MPI_STATUS_SIZE INTEGERs).\n"
               "    type, bind(C) :: MPI_Status\n"
               "        integer :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n"
               "        integer, private :: mpi_abi_slot(MPI_STATUS_SIZE - 3)\n"
               "    end type MPI_Status\n\n")
    return "".join(out)


def f_constants():
    ints, typed, offsets, known = [], [], [], {}
    for line in gf.tsv.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("name\t"):
            continue
        name, value, kind = line.split("\t")
        if kind == "typedef" or name.startswith("MPI_F_") or name.startswith("MPI_T_"):
            continue
        ctype, number = gf.constant_value(value, known)
        if number is None:
            continue
        known[name] = (ctype, number)
        if ctype == "Offset":
            offsets.append((name, number))
        elif ctype == "int":
            ints.append((name, number))
        elif "MPI_" + ctype in gf.HANDLES:
            typed.append((name, "MPI_" + ctype, number))
    out = ["    ! Kinds, the status size and the indices of module mpi's INTEGER statuses\n"]
    for name, number in gf.F_EXTRA_INTS:   # MPI_SOURCE ... index module mpi's statuses
        out.append(f"    integer, parameter :: {name} = {number}\n")
    out.append("\n    ! Constants (the ABI's values)\n")
    for name, number in ints:
        out.append(f"    integer, parameter :: {name} = {number}\n")
    for name, number in offsets:
        out.append(f"    integer(kind=MPI_OFFSET_KIND), parameter :: {name} = {number}\n")
    out.append("    logical, parameter :: MPI_SUBARRAYS_SUPPORTED = .true.\n"
               "    logical, parameter :: MPI_ASYNC_PROTECTS_NONBLOCKING = .false.\n")
    return "".join(out), typed


def f_typed_constants(typed):
    out = ["\n    ! Predefined handles\n"]
    for name, ftype, number in typed:
        out.append(f"    type({ftype}), parameter :: {name} = {ftype}({number})\n")
    out.append("\n    ! Special addresses: mpif.h's common blocks (src/fortran/sentinels.c)\n")
    for name, ftype, dims, block in F08_SENTINELS:
        out.append(f"    {ftype} :: {name}{dims}\n    common /{block}/ {name}\n")
    out.append("\n")
    return "".join(out)


def f_operators():
    """== and /= on each handle type: elemental functions of src/fortran/f08.c."""
    out = []
    for op, word in (("==", "eq"), ("/=", "ne")):
        out.append(f"    interface operator({op})\n")
        for t in HANDLE_TYPES:
            fn = f"mpi_f08_{t[4:].lower()}_{word}"
            out.append(f"        elemental function {fn}(a, b) result(answer)\n"
                       f"            import\n            implicit none\n"
                       f"            type({t}), intent(in) :: a, b\n"
                       f"            logical :: answer\n"
                       f"        end function {fn}\n")
        out.append(f"    end interface operator({op})\n")
    return "".join(out) + "\n"


def f_sizeof():
    """MPI_Sizeof: module mpi's specifics (src/fortran/sizeof.c), IERROR optional."""
    out = ["    interface MPI_Sizeof\n"]
    for ftype, kind in gf.SIZEOF_SPECIFICS:
        name = f"MPI_Sizeof_{ftype}{kind or ''}"
        decl = "character(len=*)" if kind is None else f"{ftype}(kind={kind})"
        out.append(f"        subroutine {name}(x, size, ierror)\n"
                   f"            implicit none\n"
                   f"            {decl}, dimension(..) :: x\n"
                   f"            integer :: size\n"
                   f"            integer, optional :: ierror\n"
                   f"        end subroutine {name}\n")
    out.append("    end interface MPI_Sizeof\n")
    return "".join(out)


# Routines of mpi_f08 alone (no C function): src/fortran/f08.c.
F08_ONLY = [
    ("MPI_Status_f082f", ["const MPI_Status *f08_status", "int f_status[]"]),
    ("MPI_Status_f2f08", ["const int f_status[]", "MPI_Status *f08_status"]),
]


def f_callbacks():
    out = ["    ! Predefined callbacks (src/fortran/callbacks.c)\n"]
    for iface, names in F08_CALLBACKS:
        out.append(f"    procedure({iface}) :: {', '.join(names)}\n")
    return "".join(out) + "\n"


functions_by_name = {name: params for ret, name, params in gf.functions()}


def main():
    points = entry_points()
    c_out = [C_HEAD]
    constants, typed = f_constants()
    f_out = [F_HEAD, constants, f_types()]
    f_out.append(f_typed_constants(typed))
    f_out.append(ABSTRACT_INTERFACES)
    f_out.append(f_callbacks())
    f_out.append(f_operators())
    routines = large = 0
    left_out = []
    for ret, name, params in gf.functions():
        if gf.has_no_binding(name):
            continue
        params = F08_PARAMS.get(name, params)
        if name in DIRECT:
            f_out.append(f_direct_interface(name, params, DIRECT[name]))
            f_out.append(f_direct_interface("P" + name, params, DIRECT[name]))
            routines += 1
            continue
        delegate = f"p{name.lower()}_"
        if name in F08_LEFT_OUT or delegate not in points:
            left_out.append(name)
            continue
        choices = choice_params(params)
        specifics = {prefix: [f_specific(name, name, params, choices, prefix)]
                     for prefix in ("", "P")}
        routines += 1
        if name not in F08_HAND:
            c_out.append(c_function(name, params, *points[delegate]))
        large_name = name + "_c"
        if large_name in functions_by_name and name not in F08_HAND:
            large_params = functions_by_name[large_name]
            entry = large_count_entry(large_name)
            if entry is None or not distinguishable(name, params, large_params):
                left_out.append(large_name)
            else:
                c_out.append(entry)
                formals = definitions(entry)[f"p{large_name.lower()}_"]
                c_out.append(c_function(large_name, large_params, *formals, declare=False))
                for prefix in ("", "P"):
                    specifics[prefix].append(f_specific(name, large_name, large_params,
                                                        choice_params(large_params), prefix))
                large += 1
        f_out.append(f_interface(name, specifics[""]))
        f_out.append(f_interface("P" + name, specifics["P"]))
    for name, params in F08_ONLY:
        for prefix in ("", "P"):
            f_out.append(f_interface(prefix + name, [f_specific(name, name, params, [], prefix)]))
    f_out.append(f_sizeof())
    f_out.append("end module mpi_f08\n")
    (root / "src" / "fortran" / "bindings_f08.c").write_text("".join(c_out).rstrip() + "\n")
    (root / "src" / "fortran" / "mpi_f08.f90").write_text("".join(f_out))
    print(f"src/fortran/mpi_f08.f90: {routines} routines ({large} with a large-count form); "
          f"left out: {' '.join(left_out)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
