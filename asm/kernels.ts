/**
 * AssemblyScript source of the WebAssembly SIMD scan kernel (built by asm/build.js into
 * src/vector/simd/kernels-wasm.ts): dot products of one query against many rows of a store kept in the
 * module's imported memory. Owns no memory and keeps no state; every argument is a byte offset.
 */

/** Sum of the two lanes of an f64x2. */
@inline function hsum(v: v128): f64 {
  return f64x2.extract_lane(v, 0) + f64x2.extract_lane(v, 1);
}

/** The upper two f32 lanes of `v`, widened to f64x2. */
@inline function promoteHigh(v: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 2, 3));
}

/**
 * out[i] = q . row(rows[i]) for i < count, where row r is `dim` f32 at data + r * dim * 4, q is `dim`
 * f64 and out is f64. Rows are read as f32x4 and widened to f64x2 before the multiply-add: the products
 * are the same doubles as the JS fallback's, only the order of the additions differs. Four rows per pass
 * so each query load serves four rows; 8 accumulators + 2 query registers fit the 16 SIMD registers.
 */
export function dotRows(data: usize, dim: i32, q: usize, rows: usize, count: i32, out: usize): void {
  const stride = (<usize>dim) << 2;
  const end4 = dim & ~3;
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const ri = rows + ((<usize>i) << 2);
    const p0 = data + <usize>load<u32>(ri) * stride;
    const p1 = data + <usize>load<u32>(ri, 4) * stride;
    const p2 = data + <usize>load<u32>(ri, 8) * stride;
    const p3 = data + <usize>load<u32>(ri, 12) * stride;
    let a0 = f64x2.splat(0);
    let b0 = f64x2.splat(0);
    let a1 = f64x2.splat(0);
    let b1 = f64x2.splat(0);
    let a2 = f64x2.splat(0);
    let b2 = f64x2.splat(0);
    let a3 = f64x2.splat(0);
    let b3 = f64x2.splat(0);
    let j = 0;
    for (; j < end4; j += 4) {
      const qj = q + ((<usize>j) << 3);
      const qa = v128.load(qj);
      const qb = v128.load(qj, 16);
      const o = (<usize>j) << 2;
      let r = v128.load(p0 + o);
      a0 = f64x2.add(a0, f64x2.mul(f64x2.promote_low_f32x4(r), qa));
      b0 = f64x2.add(b0, f64x2.mul(promoteHigh(r), qb));
      r = v128.load(p1 + o);
      a1 = f64x2.add(a1, f64x2.mul(f64x2.promote_low_f32x4(r), qa));
      b1 = f64x2.add(b1, f64x2.mul(promoteHigh(r), qb));
      r = v128.load(p2 + o);
      a2 = f64x2.add(a2, f64x2.mul(f64x2.promote_low_f32x4(r), qa));
      b2 = f64x2.add(b2, f64x2.mul(promoteHigh(r), qb));
      r = v128.load(p3 + o);
      a3 = f64x2.add(a3, f64x2.mul(f64x2.promote_low_f32x4(r), qa));
      b3 = f64x2.add(b3, f64x2.mul(promoteHigh(r), qb));
    }
    let s0 = hsum(f64x2.add(a0, b0));
    let s1 = hsum(f64x2.add(a1, b1));
    let s2 = hsum(f64x2.add(a2, b2));
    let s3 = hsum(f64x2.add(a3, b3));
    for (; j < dim; j++) {
      const x = load<f64>(q + ((<usize>j) << 3));
      const o = (<usize>j) << 2;
      s0 += x * <f64>load<f32>(p0 + o);
      s1 += x * <f64>load<f32>(p1 + o);
      s2 += x * <f64>load<f32>(p2 + o);
      s3 += x * <f64>load<f32>(p3 + o);
    }
    const oi = out + ((<usize>i) << 3);
    store<f64>(oi, s0);
    store<f64>(oi, s1, 8);
    store<f64>(oi, s2, 16);
    store<f64>(oi, s3, 24);
  }
  for (; i < count; i++) {
    const p = data + <usize>load<u32>(rows + ((<usize>i) << 2)) * stride;
    let a = f64x2.splat(0);
    let b = f64x2.splat(0);
    let j = 0;
    for (; j < end4; j += 4) {
      const qj = q + ((<usize>j) << 3);
      const r = v128.load(p + ((<usize>j) << 2));
      a = f64x2.add(a, f64x2.mul(f64x2.promote_low_f32x4(r), v128.load(qj)));
      b = f64x2.add(b, f64x2.mul(promoteHigh(r), v128.load(qj, 16)));
    }
    let s = hsum(f64x2.add(a, b));
    for (; j < dim; j++) s += load<f64>(q + ((<usize>j) << 3)) * <f64>load<f32>(p + ((<usize>j) << 2));
    store<f64>(out + ((<usize>i) << 3), s);
  }
}
