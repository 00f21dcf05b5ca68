/* attr.c - the keyval table and attribute lists (see attr.h for the contract).
 * Keyvals live in one growable table indexed by keyval - KEYVAL_BASE; a slot is reused only
 * after the keyval was freed by the user and no attribute refers to it any more. An attribute
 * list is a singly linked list with the newest attribute first, so delete_all runs delete
 * callbacks in reverse order of setting (what MPI_Finalize must do for MPI_COMM_SELF). */
#include "core/attr.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/comm_create.h"
#include "core/init.h"
#include "datatype/datatype.h"

/* Above MPI_KEYVAL_INVALID (0) and the predefined keys (501.., 601..). */
enum { KEYVAL_BASE = 0x1000 };

struct core_keyval {
    enum core_attr_kind kind;
    int refcount;       /* the user's handle (until freed) + attributes using it */
    int freed;
    core_attr_callback *copy_fn;
    core_attr_callback *delete_fn;
    void *extra_state;
    int fortran;        /* created in Fortran: callbacks get Fortran's view of values */
};

/* A Fortran attribute keeps its number in fortran_value and value points at it (C's view). */
struct core_attr {
    int keyval;
    struct core_keyval *key;
    void *value;
    int fortran;
    MPI_Aint fortran_value;
    struct core_attr *next;
};

static struct core_keyval **keyvals;
static int keyval_capacity;

#define ATTR_NULL_FN ((core_attr_callback *)0)
#define ATTR_DUP_FN ((core_attr_callback *)(uintptr_t)1)

/* At MPI_Finalize (while p2p still works, so callbacks may communicate): delete the
 * attributes of MPI_COMM_SELF, then MPI_COMM_WORLD, then drop keyvals nothing uses. */
static void attr_at_finalize(void)
{
    core_comm_finalize_hook();
    core_attr_finalize();
}

int core_keyval_create(enum core_attr_kind kind, core_attr_callback *copy_fn,
                       core_attr_callback *delete_fn, void *extra_state, int *keyval)
{
    static int finalize_registered;
    if (!finalize_registered) {
        core_at_finalize(attr_at_finalize);
        finalize_registered = 1;
    }
    int slot = 0;
    while (slot < keyval_capacity && keyvals[slot])
        slot++;
    if (slot == keyval_capacity) {
        int capacity = keyval_capacity ? 2 * keyval_capacity : 64;
        struct core_keyval **grown = realloc(keyvals, sizeof(*grown) * (size_t)capacity);
        if (!grown)
            return MPI_ERR_NO_MEM;
        for (int i = keyval_capacity; i < capacity; i++)
            grown[i] = NULL;
        keyvals = grown;
        keyval_capacity = capacity;
    }
    struct core_keyval *key = malloc(sizeof(*key));
    if (!key)
        return MPI_ERR_NO_MEM;
    key->kind = kind;
    key->refcount = 1;
    key->freed = 0;
    key->copy_fn = copy_fn;
    key->delete_fn = delete_fn;
    key->extra_state = extra_state;
    key->fortran = 0;
    keyvals[slot] = key;
    *keyval = KEYVAL_BASE + slot;
    return MPI_SUCCESS;
}

/* The live, not user-freed keyval of this kind, or NULL. */
static struct core_keyval *keyval_lookup(enum core_attr_kind kind, int keyval)
{
    int slot = keyval - KEYVAL_BASE;
    if (slot < 0 || slot >= keyval_capacity || !keyvals[slot])
        return NULL;
    struct core_keyval *key = keyvals[slot];
    return key->kind == kind && !key->freed ? key : NULL;
}

/* Like keyval_lookup, but also a keyval the user freed while attributes still use it: MPI
 * says those attributes are then deleted "via calls to MPI_COMM_DELETE_ATTR" (or by freeing
 * the object), so delete and get must still accept the keyval until its last attribute goes. */
static struct core_keyval *keyval_lookup_in_use(enum core_attr_kind kind, int keyval)
{
    int slot = keyval - KEYVAL_BASE;
    if (slot < 0 || slot >= keyval_capacity || !keyvals[slot])
        return NULL;
    return keyvals[slot]->kind == kind ? keyvals[slot] : NULL;
}

static void keyval_release(int keyval)
{
    int slot = keyval - KEYVAL_BASE;
    if (--keyvals[slot]->refcount == 0) {
        free(keyvals[slot]);
        keyvals[slot] = NULL;
    }
}

int core_keyval_check(enum core_attr_kind kind, int keyval)
{
    return keyval_lookup(kind, keyval) ? MPI_SUCCESS : MPI_ERR_KEYVAL;
}

int core_keyval_free(enum core_attr_kind kind, int keyval)
{
    struct core_keyval *key = keyval_lookup_in_use(kind, keyval);
    if (!key)
        return MPI_ERR_KEYVAL;
    if (key->freed) /* a second free through a copy of the handle: MPICH and Open MPI accept */
        return MPI_SUCCESS;
    key->freed = 1;
    keyval_release(keyval);
    return MPI_SUCCESS;
}

int core_keyval_make_fortran(enum core_attr_kind kind, int keyval)
{
    struct core_keyval *key = keyval_lookup(kind, keyval);
    if (!key)
        return MPI_ERR_KEYVAL;
    key->fortran = 1;
    return MPI_SUCCESS;
}

/* ---- callbacks, called through their real types ------------------------------------------- */

/* What the keyval's callbacks see: C callbacks the C view (a Fortran number by address),
 * Fortran ones (through src/fortran's trampolines) the Fortran view. */
static void *callback_value(const struct core_attr *attr)
{
    if (attr->key->fortran && attr->fortran)
        return (void *)attr->fortran_value;
    return attr->value;
}

static int call_copy(const struct core_attr *attr, void *handle, void **out, int *flag)
{
    core_attr_callback *fn = attr->key->copy_fn;
    *flag = 0;
    if (fn == ATTR_NULL_FN)
        return MPI_SUCCESS;
    if (fn == ATTR_DUP_FN) { /* the same value in the same language (see copy_all) */
        *out = attr->fortran ? (void *)attr->fortran_value : attr->value;
        *flag = 1;
        return MPI_SUCCESS;
    }
    void *extra = attr->key->extra_state;
    void *in = callback_value(attr);
    switch (attr->key->kind) {
    case CORE_ATTR_COMM:
        return ((MPI_Comm_copy_attr_function *)fn)((MPI_Comm)handle, attr->keyval, extra, in,
                                                    out, flag);
    case CORE_ATTR_TYPE:
        return ((MPI_Type_copy_attr_function *)fn)((MPI_Datatype)handle, attr->keyval, extra,
                                                    in, out, flag);
    case CORE_ATTR_WIN:
        return ((MPI_Win_copy_attr_function *)fn)((MPI_Win)handle, attr->keyval, extra, in,
                                                   out, flag);
    }
    return MPI_ERR_INTERN;
}

static int call_delete(const struct core_attr *attr, void *handle)
{
    core_attr_callback *fn = attr->key->delete_fn;
    if (fn == ATTR_NULL_FN)
        return MPI_SUCCESS;
    void *extra = attr->key->extra_state;
    void *value = callback_value(attr);
    switch (attr->key->kind) {
    case CORE_ATTR_COMM:
        return ((MPI_Comm_delete_attr_function *)fn)((MPI_Comm)handle, attr->keyval, value,
                                                      extra);
    case CORE_ATTR_TYPE:
        return ((MPI_Type_delete_attr_function *)fn)((MPI_Datatype)handle, attr->keyval,
                                                      value, extra);
    case CORE_ATTR_WIN:
        return ((MPI_Win_delete_attr_function *)fn)((MPI_Win)handle, attr->keyval, value,
                                                     extra);
    }
    return MPI_ERR_INTERN;
}

/* ---- lists -------------------------------------------------------------------------------- */

static struct core_attr **find_attr(void **list, int keyval)
{
    struct core_attr **link = (struct core_attr **)list;
    while (*link && (*link)->keyval != keyval)
        link = &(*link)->next;
    return link;
}

static int list_push(void **list, int keyval, struct core_keyval *key, void *value)
{
    struct core_attr *attr = malloc(sizeof(*attr));
    if (!attr)
        return MPI_ERR_NO_MEM;
    attr->keyval = keyval;
    attr->key = key;
    attr->value = value;
    attr->fortran = 0;
    attr->fortran_value = 0;
    attr->next = *list;
    *list = attr;
    key->refcount++;
    return MPI_SUCCESS;
}

static void unlink_attr(struct core_attr **link)
{
    struct core_attr *attr = *link;
    *link = attr->next;
    keyval_release(attr->keyval);
    free(attr);
}

int core_attr_set(enum core_attr_kind kind, void **list, void *handle, int keyval, void *value)
{
    struct core_keyval *key = keyval_lookup(kind, keyval);
    if (!key)
        return MPI_ERR_KEYVAL;
    struct core_attr **link = find_attr(list, keyval);
    if (!*link)
        return list_push(list, keyval, key, value);
    int rc = call_delete(*link, handle);
    if (rc != MPI_SUCCESS)
        return rc;
    (*link)->value = value;
    (*link)->fortran = 0;
    return MPI_SUCCESS;
}

void core_attr_make_fortran(void *list, int keyval, MPI_Aint value)
{
    struct core_attr *attr = *find_attr(&list, keyval);
    if (attr) {
        attr->fortran = 1;
        attr->fortran_value = value;
        attr->value = &attr->fortran_value;
    }
}

void core_attr_get_fortran(void *list, int keyval, MPI_Aint *value, int *flag)
{
    struct core_attr *attr = *find_attr(&list, keyval);
    *flag = attr != NULL;
    if (attr)
        *value = attr->fortran ? attr->fortran_value : (MPI_Aint)attr->value;
}

int core_attr_get(enum core_attr_kind kind, void *list, int keyval, void **value, int *flag)
{
    if (!keyval_lookup_in_use(kind, keyval))
        return MPI_ERR_KEYVAL;
    struct core_attr **link = find_attr(&list, keyval);
    *flag = *link != NULL;
    if (*link)
        *value = (*link)->value;
    return MPI_SUCCESS;
}

int core_attr_delete(enum core_attr_kind kind, void **list, void *handle, int keyval)
{
    if (!keyval_lookup_in_use(kind, keyval))
        return MPI_ERR_KEYVAL;
    struct core_attr **link = find_attr(list, keyval);
    if (!*link)
        return MPI_ERR_KEYVAL; /* MPI: deleting an attribute that is not set is erroneous */
    int rc = call_delete(*link, handle);
    if (rc != MPI_SUCCESS)
        return rc;
    unlink_attr(link);
    return MPI_SUCCESS;
}

int core_attr_delete_all(enum core_attr_kind kind, void **list, void *handle)
{
    (void)kind;
    while (*list) {
        struct core_attr **head = (struct core_attr **)list;
        int rc = call_delete(*head, handle);
        if (rc != MPI_SUCCESS)
            return rc;
        unlink_attr(head);
    }
    return MPI_SUCCESS;
}

void core_attr_drop_all(void **list)
{
    while (*list)
        unlink_attr((struct core_attr **)list);
}

/* The copies are pushed in reverse so the new list keeps the old one's order. */
int core_attr_copy_all(enum core_attr_kind kind, void *src, void *old_handle, void **dst)
{
    (void)kind;
    int n = 0;
    for (struct core_attr *a = src; a; a = a->next)
        n++;
    struct core_attr **order = malloc(sizeof(*order) * (size_t)(n ? n : 1));
    if (!order)
        return MPI_ERR_NO_MEM;
    int i = n;
    for (struct core_attr *a = src; a; a = a->next)
        order[--i] = a;
    int rc = MPI_SUCCESS;
    for (i = 0; i < n && rc == MPI_SUCCESS; i++) {
        void *value = NULL;
        int flag = 0;
        rc = call_copy(order[i], old_handle, &value, &flag);
        if (rc == MPI_SUCCESS && flag)
            rc = list_push(dst, order[i]->keyval, order[i]->key, value);
        /* MPI_DUP_FN keeps the value's language; a callback's result is in its own. */
        int fortran = order[i]->key->copy_fn == ATTR_DUP_FN ? order[i]->fortran
                                                             : order[i]->key->fortran;
        if (rc == MPI_SUCCESS && flag && fortran)
            core_attr_make_fortran(*dst, order[i]->keyval, (MPI_Aint)value);
    }
    free(order);
    if (rc != MPI_SUCCESS) /* undo without callbacks: the new object never existed */
        core_attr_drop_all(dst);
    return rc;
}

/* Keyvals still used by attributes (on objects the user never freed) stay allocated: their
 * attributes may yet be deleted, e.g. by the datatype layer's teardown. */
void core_attr_finalize(void)
{
    int in_use = 0;
    for (int i = 0; i < keyval_capacity; i++) {
        if (keyvals[i] && keyvals[i]->refcount - !keyvals[i]->freed > 0) {
            in_use = 1;
            continue;
        }
        free(keyvals[i]);
        keyvals[i] = NULL;
    }
    if (in_use)
        return;
    free(keyvals);
    keyvals = NULL;
    keyval_capacity = 0;
}

/* ---- datatype hooks (declared weak in datatype/datatype.h) -------------------------------- */

int core_attr_type_delete_all(struct dt_type *type)
{
    return core_attr_delete_all(CORE_ATTR_TYPE, &type->attributes, (void *)dt_to_handle(type));
}

int core_attr_type_copy_all(struct dt_type *oldtype, struct dt_type *newtype)
{
    return core_attr_copy_all(CORE_ATTR_TYPE, oldtype->attributes, (void *)dt_to_handle(oldtype),
                              &newtype->attributes);
}
