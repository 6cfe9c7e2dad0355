/**
 * Which WebGL renderer draws the 3D view, and whether it draws in software: no GPU (a VM, a container, a remote
 * desktop) or VS Code with its GPU disabled. There antialiasing (multisampling) makes each frame of the view 3 to 5
 * times slower (27 atoms in Chromium's SwiftShader: 0.3 to 0.9 s a frame with it, 0.07 to 0.13 s without), so a
 * hover or a click answers late; the view draws without it there.
 */

/** Renderers that draw on the CPU: Chromium's SwiftShader, Mesa's llvmpipe, softpipe and lavapipe, Windows' WARP. */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|lavapipe|software|basic render driver/i;

export function isSoftwareRenderer(name: string): boolean {
  return SOFTWARE.test(name);
}

/** The renderer's name as the driver gives it ('' without WebGL), read from a context made and released for it. */
export function webglRenderer(): string {
  const gl = document.createElement('canvas').getContext('webgl');
  if (!gl) return '';
  const debug = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return name;
}
