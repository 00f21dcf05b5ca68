/* pslacon_est_zero.c - LD_PRELOAD workaround for a ScaLAPACK 2.2.1 bug that made xslu fail
 * intermittently on nodempi (tests/external/scalapack.sh, branch h-scalapack). Not part of
 * nodempi.
 *
 * The bug: PSLACON (Debian's libscalapack 2.2.1) starts every entry with ESTWORK(1) = EST and,
 * on the entry for JUMP = 3, takes ESTOLD = ESTWORK(1), then decides
 *     IF( IFLAG.EQ.0 .OR. ESTWORK( 1 ).LE.ESTOLD ) GO TO 120     (KASE = 1, else KASE = 2)
 * but PSGERFS never sets its local EST before the first call, so ESTOLD is whatever the stack
 * held, different on every process. Processes then return different KASE and call PSGETRS with
 * different TRANS ('T' and 'N'): PCHK2MAT's GLOBCHK sees the 23rd value (TRANS) differ, prints
 * "PSGETRS parameter number 1 had an illegal value", and the processes, now on different paths,
 * hang. Which MPI is underneath only decides what garbage is left on the stack (valgrind reports
 * the same uninitialised read, origin "stack allocation in psgerfs_", with MPICH). Later upstream
 * pslacon.f sets EST = ZERO before ESTWORK(1) = EST.
 *
 * This wrapper sets EST = 0 on the first call of each estimate (KASE == 0); PSGERFS does not
 * touch EST between calls, so every entry then sees 0, as with the upstream fix. Build:
 *   gcc -O2 -fPIC -shared pslacon_est_zero.c -o libpslacon_est_zero.so -ldl
 * and run the drivers with LD_PRELOAD=.../libpslacon_est_zero.so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef void pslacon_fn(int *n, float *v, int *iv, int *jv, int *descv, float *x, int *ix,
                        int *jx, int *descx, int *isgn, float *est, int *kase);

void pslacon_(int *n, float *v, int *iv, int *jv, int *descv, float *x, int *ix, int *jx,
              int *descx, int *isgn, float *est, int *kase)
{
    static pslacon_fn *real;
    if (!real && !(real = (pslacon_fn *)dlsym(RTLD_NEXT, "pslacon_"))) {
        fprintf(stderr, "pslacon_est_zero: no pslacon_ to wrap\n");
        abort();
    }
    if (*kase == 0)
        *est = 0.0f;
    real(n, v, iv, jv, descv, x, ix, jx, descx, isgn, est, kase);
}
