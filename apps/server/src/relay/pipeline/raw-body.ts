/** Original request bytes by parsed body object; entries vanish with the request. */
export const rawBodies = new WeakMap<object, Buffer>();
