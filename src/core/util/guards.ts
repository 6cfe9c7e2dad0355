/**
 * Type guards for messages that cross between the extension and a webview: each side checks what it
 * receives field by field and drops anything malformed. Pure: imported by both sides.
 */
export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isInt(value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

export function isString(value: unknown, maxLength = 1000): value is string {
  return typeof value === 'string' && value.length <= maxLength;
}

export function isArrayOf<T>(value: unknown, item: (v: unknown) => v is T, maxLength = Number.MAX_SAFE_INTEGER): value is T[] {
  return Array.isArray(value) && value.length <= maxLength && value.every((v) => item(v));
}

export function isVec3(value: unknown): value is [number, number, number] {
  return Array.isArray(value) && value.length === 3 && value.every(isFiniteNumber);
}
