// p5.js 2 ships types for the whole library only; these name the per-module entry points
// soft-lookup.ts loads (core plus the 2-D modules it draws with).
declare module 'p5/core' {
  import p5 from 'p5';
  export default p5;
}
declare module 'p5/shape' {
  const addon: (p5: unknown) => void;
  export default addon;
}
declare module 'p5/color' {
  const addon: (p5: unknown) => void;
  export default addon;
}
declare module 'p5/math' {
  const addon: (p5: unknown) => void;
  export default addon;
}
