/**
 * The 3D view draws without antialiasing where WebGL runs on the CPU. Renderer names as browsers report them
 * (WEBGL_debug_renderer_info): the first is this machine's Debian Chromium with --disable-gpu, as the headless
 * extension-host runner draws; the rest are the names Chromium's ANGLE, Firefox and Safari give on common machines.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSoftwareRenderer } from '../../../../../src/webviews/pages/structure/renderer';

test('software renderers are recognised: SwiftShader, llvmpipe, lavapipe, softpipe, WARP, Chromium’s software rasterizer', () => {
  for (const name of [
    'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
    'Google SwiftShader',
    'llvmpipe (LLVM 15.0.6, 256 bits)',
    'ANGLE (Mesa, Vulkan 1.3.255 (llvmpipe (LLVM 15.0.7, 256 bits) (0x00000000)), Mesa (lavapipe))',
    'softpipe',
    'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)',
    'Software Rasterizer',
  ])
    assert.equal(isSoftwareRenderer(name), true, name);
});

test('GPUs, and names a browser masks, keep antialiasing', () => {
  for (const name of [
    'ANGLE (NVIDIA, NVIDIA GeForce RTX 3070 Direct3D11 vs_5_0 ps_5_0, D3D11)',
    'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)',
    'ANGLE (Apple, ANGLE Metal Renderer: Apple M1, Unspecified Version)',
    'AMD Radeon RX 580 (radeonsi, polaris10, LLVM 15.0.7, DRM 3.49, 6.1.0-13-amd64)',
    'Adreno (TM) 650',
    'WebKit WebGL',
    '',
  ])
    assert.equal(isSoftwareRenderer(name), false, name);
});
