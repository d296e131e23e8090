//! The little linear algebra the Bradley-Terry fit needs: a dense Cholesky factorisation with the
//! diagonal of the inverse, and a preconditioned conjugate-gradient solver.

/// `a . b` over the common length, with eight partial sums so that it vectorises.
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [0.0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// Block size of the dense kernels: a panel of 1000 rows x 32 columns is 256 KB.
const BLOCK: usize = 32;

/// Diagonal of the inverse of the symmetric positive definite `m x m` matrix `a` (row-major; only
/// the lower triangle is read, and `a` is overwritten by its Cholesky factor). Returns `None` if
/// `a` is not (numerically) positive definite. Cost: about `m^3 / 3` multiply-adds, blocked so
/// that the working set stays in cache.
pub(super) fn inverse_diagonal(a: &mut [f64], m: usize) -> Option<Vec<f64>> {
    assert_eq!(a.len(), m * m);
    cholesky(a, m)?;
    // (A^-1)[c][c] = |L^-1 e_c|^2. For a block of columns c0..c1, solve L X = E by forward
    // substitution, X stored row-major (rows c0..m, BLOCK wide; rows above c0 are zero).
    let mut out = vec![0.0; m];
    let mut x = vec![0.0; m * BLOCK];
    for c0 in (0..m).step_by(BLOCK) {
        let w = BLOCK.min(m - c0);
        for i in c0..m {
            let row = &a[i * m..i * m + m];
            let mut acc = [0.0f64; BLOCK];
            if i < c0 + w {
                acc[i - c0] = 1.0;
            }
            for k in c0..i {
                let l = row[k];
                let xk = &x[(k - c0) * BLOCK..(k - c0 + 1) * BLOCK];
                for c in 0..BLOCK {
                    acc[c] -= l * xk[c];
                }
            }
            let inv = 1.0 / row[i];
            let xi = &mut x[(i - c0) * BLOCK..(i - c0 + 1) * BLOCK];
            for c in 0..BLOCK {
                xi[c] = acc[c] * inv;
            }
        }
        for i in c0..m {
            let xi = &x[(i - c0) * BLOCK..(i - c0) * BLOCK + w];
            for c in 0..w {
                out[c0 + c] += xi[c] * xi[c];
            }
        }
    }
    Some(out)
}

/// In-place Cholesky factorisation `A = L L'` of the lower triangle of `a` (right-looking,
/// blocked). `None` if a pivot is not positive.
fn cholesky(a: &mut [f64], m: usize) -> Option<()> {
    let mut panel: Vec<f64> = Vec::with_capacity(m * BLOCK);
    for k0 in (0..m).step_by(BLOCK) {
        let k1 = (k0 + BLOCK).min(m);
        let w = k1 - k0;
        // The diagonal block, then the panel below it, against the diagonal block:
        // L[i][j] = (A[i][j] - L[i][k0..j] . L[j][k0..j]) / L[j][j].
        for i in k0..m {
            for j in k0..k1.min(i) {
                let s = dot(&a[i * m + k0..i * m + j], &a[j * m + k0..j * m + j]);
                a[i * m + j] = (a[i * m + j] - s) / a[j * m + j];
            }
            if i < k1 {
                let r = &a[i * m + k0..i * m + i];
                let d = a[i * m + i] - dot(r, r);
                if !(d > 0.0 && d.is_finite()) {
                    return None;
                }
                a[i * m + i] = d.sqrt();
            }
        }
        // The trailing matrix: A[i][j] -= L[i][k0..k1] . L[j][k0..k1], from a compact copy.
        panel.clear();
        for i in k1..m {
            panel.extend_from_slice(&a[i * m + k0..i * m + k1]);
        }
        for i in k1..m {
            let pi = &panel[(i - k1) * w..(i - k1 + 1) * w];
            let row = &mut a[i * m + k1..i * m + i + 1];
            for (j, cell) in row.iter_mut().enumerate() {
                *cell -= dot(pi, &panel[j * w..(j + 1) * w]);
            }
        }
    }
    Some(())
}

/// Solves `A x = b` for a symmetric positive definite `A` given as `apply(v, out)` (out = A v),
/// by conjugate gradients with the Jacobi preconditioner `diag` (positive). Stops when the
/// residual is below `rel_tol * |b|` or after `max_iter` iterations.
pub(super) fn pcg(
    apply: &mut impl FnMut(&[f64], &mut [f64]),
    diag: &[f64],
    b: &[f64],
    rel_tol: f64,
    max_iter: usize,
) -> Vec<f64> {
    let m = b.len();
    let mut x = vec![0.0; m];
    let bnorm = dot(b, b).sqrt();
    if bnorm == 0.0 {
        return x;
    }
    let mut r = b.to_vec();
    let mut z: Vec<f64> = r.iter().zip(diag).map(|(r, d)| r / d).collect();
    let mut p = z.clone();
    let mut ap = vec![0.0; m];
    let mut rz = dot(&r, &z);
    for _ in 0..max_iter {
        apply(&p, &mut ap);
        let pap = dot(&p, &ap);
        if pap.is_nan() || pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for k in 0..m {
            x[k] += alpha * p[k];
            r[k] -= alpha * ap[k];
        }
        if dot(&r, &r).sqrt() <= rel_tol * bnorm {
            break;
        }
        for k in 0..m {
            z[k] = r[k] / diag[k];
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for k in 0..m {
            p[k] = z[k] + beta * p[k];
        }
    }
    x
}
