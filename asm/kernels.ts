/**
 * AssemblyScript source of the WebAssembly SIMD scan kernels (built by asm/build.js into
 * src/vector-index/simd/kernels-wasm.ts): dot products of one query against many rows of a store kept in the
 * module's imported memory, in float64 (exact ranking) or float32 (a fast first pass), the float32 sums
 * of the hits' `$similarity` (scalar, in order), and approximate dot products of int8 rows. Owns no memory
 * and keeps no state; every argument is a byte offset.
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

/** Sum of the four lanes of an f32x4, as (0 + 1) + (2 + 3). */
@inline function hsum32(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

/**
 * out[i] ~ q . row(rows[i]) for i < count like dotRows, but q is `dim` f32 and the products and sums are
 * float32 (four lanes): about twice the speed, with an error of at most (dim + 1) * 2^-24 * |q| * |row|
 * (plus subnormal losses), which the caller allows for before it rescores the few rows that can still
 * make the top k with dotRows. out is f64. Eight rows per pass, one accumulator each: eight rows read at
 * once keep more cache misses in flight (the rows of a filter's candidates are scattered over memory), which
 * measured faster than four rows with two accumulators each.
 */
export function dotRowsF32(data: usize, dim: i32, q: usize, rows: usize, count: i32, out: usize): void {
  const stride = (<usize>dim) << 2;
  const end4 = dim & ~3;
  let i = 0;
  for (; i + 8 <= count; i += 8) {
    const ri = rows + ((<usize>i) << 2);
    const p0 = data + <usize>load<u32>(ri) * stride;
    const p1 = data + <usize>load<u32>(ri, 4) * stride;
    const p2 = data + <usize>load<u32>(ri, 8) * stride;
    const p3 = data + <usize>load<u32>(ri, 12) * stride;
    const p4 = data + <usize>load<u32>(ri, 16) * stride;
    const p5 = data + <usize>load<u32>(ri, 20) * stride;
    const p6 = data + <usize>load<u32>(ri, 24) * stride;
    const p7 = data + <usize>load<u32>(ri, 28) * stride;
    let a0 = f32x4.splat(0);
    let a1 = f32x4.splat(0);
    let a2 = f32x4.splat(0);
    let a3 = f32x4.splat(0);
    let a4 = f32x4.splat(0);
    let a5 = f32x4.splat(0);
    let a6 = f32x4.splat(0);
    let a7 = f32x4.splat(0);
    let j = 0;
    for (; j < end4; j += 4) {
      const o = (<usize>j) << 2;
      const qa = v128.load(q + o);
      a0 = f32x4.add(a0, f32x4.mul(v128.load(p0 + o), qa));
      a1 = f32x4.add(a1, f32x4.mul(v128.load(p1 + o), qa));
      a2 = f32x4.add(a2, f32x4.mul(v128.load(p2 + o), qa));
      a3 = f32x4.add(a3, f32x4.mul(v128.load(p3 + o), qa));
      a4 = f32x4.add(a4, f32x4.mul(v128.load(p4 + o), qa));
      a5 = f32x4.add(a5, f32x4.mul(v128.load(p5 + o), qa));
      a6 = f32x4.add(a6, f32x4.mul(v128.load(p6 + o), qa));
      a7 = f32x4.add(a7, f32x4.mul(v128.load(p7 + o), qa));
    }
    let s0 = hsum32(a0);
    let s1 = hsum32(a1);
    let s2 = hsum32(a2);
    let s3 = hsum32(a3);
    let s4 = hsum32(a4);
    let s5 = hsum32(a5);
    let s6 = hsum32(a6);
    let s7 = hsum32(a7);
    for (; j < dim; j++) {
      const o = (<usize>j) << 2;
      const x = load<f32>(q + o);
      s0 += x * load<f32>(p0 + o);
      s1 += x * load<f32>(p1 + o);
      s2 += x * load<f32>(p2 + o);
      s3 += x * load<f32>(p3 + o);
      s4 += x * load<f32>(p4 + o);
      s5 += x * load<f32>(p5 + o);
      s6 += x * load<f32>(p6 + o);
      s7 += x * load<f32>(p7 + o);
    }
    const oi = out + ((<usize>i) << 3);
    store<f64>(oi, <f64>s0);
    store<f64>(oi, <f64>s1, 8);
    store<f64>(oi, <f64>s2, 16);
    store<f64>(oi, <f64>s3, 24);
    store<f64>(oi, <f64>s4, 32);
    store<f64>(oi, <f64>s5, 40);
    store<f64>(oi, <f64>s6, 48);
    store<f64>(oi, <f64>s7, 56);
  }
  for (; i < count; i++) {
    const p = data + <usize>load<u32>(rows + ((<usize>i) << 2)) * stride;
    let a = f32x4.splat(0);
    let j = 0;
    for (; j < end4; j += 4) {
      const o = (<usize>j) << 2;
      a = f32x4.add(a, f32x4.mul(v128.load(p + o), v128.load(q + o)));
    }
    let s = hsum32(a);
    for (; j < dim; j++) s += load<f32>(q + ((<usize>j) << 2)) * load<f32>(p + ((<usize>j) << 2));
    store<f64>(out + ((<usize>i) << 3), <f64>s);
  }
}

/**
 * The sums of the Data API's float32 similarity for rows[i] < count, one component after another in order,
 * in float32: out[2i] = q . row and out[2i + 1] = row . row, or with `euclidean` set out[2i] = |q - row|^2.
 * The same arithmetic as the JS float32Similarity (a float32 operation is correctly rounded, and so is a
 * double one of float32 operands rounded to float32; no fused multiply-add, no reordering), so the scores
 * are bit for bit the same. Each row's sums are a chain of dependent adds (the order is the result): four
 * rows go side by side so that their chains overlap, where V8 runs one with conversions around each add.
 */
export function similaritySumsF32(data: usize, dim: i32, q: usize, rows: usize, count: i32, out: usize, euclidean: i32): void {
  const stride = (<usize>dim) << 2;
  let i = 0;
  for (; i + 4 <= count; i += 4) {
    const ri = rows + ((<usize>i) << 2);
    const p0 = data + <usize>load<u32>(ri) * stride;
    const p1 = data + <usize>load<u32>(ri, 4) * stride;
    const p2 = data + <usize>load<u32>(ri, 8) * stride;
    const p3 = data + <usize>load<u32>(ri, 12) * stride;
    let a0: f32 = 0;
    let a1: f32 = 0;
    let a2: f32 = 0;
    let a3: f32 = 0;
    let b0: f32 = 0;
    let b1: f32 = 0;
    let b2: f32 = 0;
    let b3: f32 = 0;
    if (euclidean) {
      for (let j = 0; j < dim; j++) {
        const o = (<usize>j) << 2;
        const x = load<f32>(q + o);
        const d0: f32 = x - load<f32>(p0 + o);
        const d1: f32 = x - load<f32>(p1 + o);
        const d2: f32 = x - load<f32>(p2 + o);
        const d3: f32 = x - load<f32>(p3 + o);
        a0 = a0 + d0 * d0;
        a1 = a1 + d1 * d1;
        a2 = a2 + d2 * d2;
        a3 = a3 + d3 * d3;
      }
    } else {
      for (let j = 0; j < dim; j++) {
        const o = (<usize>j) << 2;
        const x = load<f32>(q + o);
        const y0 = load<f32>(p0 + o);
        const y1 = load<f32>(p1 + o);
        const y2 = load<f32>(p2 + o);
        const y3 = load<f32>(p3 + o);
        a0 = a0 + x * y0;
        a1 = a1 + x * y1;
        a2 = a2 + x * y2;
        a3 = a3 + x * y3;
        b0 = b0 + y0 * y0;
        b1 = b1 + y1 * y1;
        b2 = b2 + y2 * y2;
        b3 = b3 + y3 * y3;
      }
    }
    const oi = out + ((<usize>i) << 4);
    store<f64>(oi, <f64>a0);
    store<f64>(oi, <f64>b0, 8);
    store<f64>(oi, <f64>a1, 16);
    store<f64>(oi, <f64>b1, 24);
    store<f64>(oi, <f64>a2, 32);
    store<f64>(oi, <f64>b2, 40);
    store<f64>(oi, <f64>a3, 48);
    store<f64>(oi, <f64>b3, 56);
  }
  for (; i < count; i++) {
    const p = data + <usize>load<u32>(rows + ((<usize>i) << 2)) * stride;
    let a: f32 = 0;
    let b: f32 = 0;
    if (euclidean) {
      for (let j = 0; j < dim; j++) {
        const o = (<usize>j) << 2;
        const d: f32 = load<f32>(q + o) - load<f32>(p + o);
        a = a + d * d;
      }
    } else {
      for (let j = 0; j < dim; j++) {
        const o = (<usize>j) << 2;
        const y = load<f32>(p + o);
        a = a + load<f32>(q + o) * y;
        b = b + y * y;
      }
    }
    const oi = out + ((<usize>i) << 4);
    store<f64>(oi, <f64>a);
    store<f64>(oi, <f64>b, 8);
  }
}

/**
 * out[i] = q . codes(rows[i]) for i < count (int8 rows, int8-rows.ts): row r is `dim` u8 codes at
 * data + r * dim, q is `dim` i16 (the query times each dimension's step, scaled to integers by the caller) and
 * out is f64. Integer products summed by i32x4.dot_i16x8_s, 16 codes a step: exact, as long as the caller keeps
 * |q| small enough that a lane's dim / 4 products of at most 255 |q| stay within i32.
 */
export function dotRowsU8(data: usize, dim: i32, q: usize, rows: usize, count: i32, out: usize): void {
  const end16 = dim & ~15;
  for (let i = 0; i < count; i++) {
    const p = data + <usize>load<u32>(rows + ((<usize>i) << 2)) * <usize>dim;
    let a = i32x4.splat(0);
    let b = i32x4.splat(0);
    let j = 0;
    for (; j < end16; j += 16) {
      const c = v128.load(p + <usize>j);
      const qj = q + ((<usize>j) << 1);
      a = i32x4.add(a, i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_u(c), v128.load(qj)));
      b = i32x4.add(b, i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_u(c), v128.load(qj, 16)));
    }
    const s = i32x4.add(a, b);
    let sum = <f64>i32x4.extract_lane(s, 0) + <f64>i32x4.extract_lane(s, 1) + <f64>i32x4.extract_lane(s, 2) + <f64>i32x4.extract_lane(s, 3);
    for (; j < dim; j++) sum += <f64>load<i16>(q + ((<usize>j) << 1)) * <f64>load<u8>(p + <usize>j);
    store<f64>(out + ((<usize>i) << 3), sum);
  }
}
