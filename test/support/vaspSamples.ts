/**
 * Small OUTCAR and vasprun.xml texts written here (not copied from any run), laid out as VASP 5/6 write
 * them, for the reader tests: every part the readers use, with numbers chosen so a result can be checked by hand.
 */

export interface SampleStep {
  /** Cartesian positions (OUTCAR) or fractional (vasprun.xml). */
  positions: number[][];
  forces: number[][];
  /** XX YY ZZ XY YZ ZX in kBar. */
  stress: number[];
  toten: number;
  sigma0: number;
  lattice?: number[][];
}

const f = (x: number, width = 12, digits = 6) => x.toFixed(digits).padStart(width);

export const SI_O2_LATTICE = [
  [5, 0, 0],
  [0, 6, 0],
  [0, 0, 7],
];

/** A three-atom Si O2 relaxation: two steps by default. */
export function sampleSteps(count = 2): SampleStep[] {
  const steps: SampleStep[] = [];
  for (let s = 0; s < count; s++) {
    const d = 0.01 * s;
    steps.push({
      positions: [
        [0 + d, 0, 0],
        [1.5, 1.5 + d, 1.5],
        [3, 3, 3 + d],
      ],
      forces: [
        [0.3 - 0.1 * s, -0.4, 0],
        [0, 0.1, -0.2],
        [-0.3 + 0.1 * s, 0.3, 0.2],
      ],
      stress: [-9.9 + s, -8 + s, -7, 1, 2, 3],
      toten: -20.5 - 0.1 * s,
      sigma0: -20.45 - 0.1 * s,
    });
  }
  return steps;
}

export interface OutcarOptions {
  steps?: SampleStep[];
  reached?: boolean;
  finished?: boolean;
  ediffg?: string;
  counts?: string;
  titel?: string[];
  /** Replace the POTCAR: and TITEL lines entirely. */
  noPotcar?: boolean;
  ibrion?: number;
  nsw?: number;
}

/** An OUTCAR as VASP writes one (the parts the reader uses, with the electronic loop's noise around them). */
export function sampleOutcar(o: OutcarOptions = {}): string {
  const steps = o.steps ?? sampleSteps();
  const titel = o.titel ?? ['PAW_PBE Si 05Jan2001', 'PAW_PBE O 08Apr2002'];
  const lines: string[] = [
    ' vasp.6.3.0 18Jan22 (build Feb 01 2022 12:00:00) complex',
    ' ',
    ' executed on             LinuxIFC date 2026.11.27  09:00:00',
  ];
  if (!o.noPotcar) {
    for (let r = 0; r < 2; r++) for (const t of titel) lines.push(` POTCAR:    ${t}`);
    for (const t of titel)
      lines.push(`   VRHFIN =${t.split(' ')[1]}: s2p2`, `   TITEL  = ${t}`, '   POMASS =   28.085; ZVAL   =    4.000    mass and valenz');
  }
  lines.push(
    '   number of dos      NEDOS =    301   number of ions     NIONS =      3',
    `   ions per type =  ${o.counts ?? '             1   2'}`,
    `   NSW    =    ${o.nsw ?? 99}    number of steps for IOM`,
    `   IBRION =      ${o.ibrion ?? 2}    ionic relax: 0-MD 1-quasi-New 2-CG`,
    `   EDIFFG = ${o.ediffg ?? '-.2E-01'}   stopping-criterion for IOM`,
    '',
    '      direct lattice vectors                 reciprocal lattice vectors',
    ...SI_O2_LATTICE.map((row) => `  ${row.map((x) => f(x, 13, 9)).join('')}  ${row.map((x) => f(x ? 1 / x : 0, 13, 9)).join('')}`),
    '',
  );
  steps.forEach((step, s) => {
    lines.push(
      `--------------------------------------- Iteration    ${s + 1}(   1)  ---------------------------------------`,
      '',
      '  free energy    TOTEN  =       -19.12345678 eV',
      '  energy without entropy =      -19.12345678  energy(sigma->0) =      -19.12345678',
      '',
      '  FORCE on cell =-STRESS in cart. coord.  units (eV):',
      '  Direction    XX          YY          ZZ          XY          YZ          ZX',
      `  Total   ${step.stress.map((x) => f(x / 10, 12, 5)).join('')}`,
      `  in kB   ${step.stress.map((x) => f(x, 12, 5)).join('')}`,
      '  external pressure =       -8.30 kB  Pullay stress =        0.00 kB',
      '',
    );
    if (step.lattice) {
      lines.push(
        ' VOLUME and BASIS-vectors are now :',
        '      direct lattice vectors                 reciprocal lattice vectors',
        ...step.lattice.map((row) => `  ${row.map((x) => f(x, 13, 9)).join('')}  ${row.map(() => f(0, 13, 9)).join('')}`),
        '',
      );
    }
    lines.push(
      ' POSITION                                       TOTAL-FORCE (eV/Angst)',
      ' -----------------------------------------------------------------------------------',
      ...step.positions.map((p, i) => `  ${p.map((x) => f(x, 12, 5)).join(' ')}   ${step.forces[i]!.map((x) => f(x, 13, 6)).join(' ')}`),
      ' -----------------------------------------------------------------------------------',
      '    total drift:                                0.000000     -0.000000      0.000000',
      '',
      '',
      '  FREE ENERGIE OF THE ION-ELECTRON SYSTEM (eV)',
      '  ---------------------------------------------------',
      `  free  energy   TOTEN  =  ${f(step.toten, 18, 8)} eV`,
      '',
      `  energy  without entropy=  ${f(step.toten + 0.02, 16, 8)}  energy(sigma->0) =  ${f(step.sigma0, 16, 8)}`,
      '',
      ` E-fermi :   ${(5.1 + s).toFixed(4)}     XC(G=0):  -7.0226     alpha+bet : -6.2133`,
      '',
    );
  });
  if (o.reached ?? true) lines.push(' reached required accuracy - stopping structural energy minimisation');
  if (o.finished ?? true)
    lines.push(
      '',
      ' General timing and accounting informations for this job:',
      ' ========================================================',
      '',
    );
  return lines.join('\n');
}

export interface VasprunOptions {
  steps?: SampleStep[];
  /** Rows of 'spin' sets, each a list of k-points, each a list of [eigenvalue, occupation]. */
  eigenvalues?: number[][][][];
  efermi?: number;
  selective?: string[];
  nsw?: number;
  finished?: boolean;
  species?: string[];
}

const v = (values: readonly number[]) => `<v>${values.map((x) => f(x, 17, 8)).join('')} </v>`;

/** A vasprun.xml as VASP writes one: header, atominfo, initial structure, calculations, final structure. */
export function sampleVasprun(o: VasprunOptions = {}): string {
  const steps = o.steps ?? sampleSteps();
  const species = o.species ?? ['Si', 'O', 'O'];
  const lattice = SI_O2_LATTICE;
  const structure = (name: string | undefined, positions: number[][], lat = lattice, indent = ' ') => [
    `${indent}<structure${name ? ` name="${name}" ` : ''}>`,
    `${indent} <crystal>`,
    `${indent}  <varray name="basis" >`,
    ...lat.map((row) => `${indent}   ${v(row)}`),
    `${indent}  </varray>`,
    `${indent}  <i name="volume">    210.00000000 </i>`,
    `${indent} </crystal>`,
    `${indent} <varray name="positions" >`,
    ...positions.map((p) => `${indent}  ${v(p)}`),
    `${indent} </varray>`,
    ...(o.selective && name
      ? [
          `${indent} <varray type="logical" name="selective" >`,
          ...o.selective.map((s) => `${indent}  <v type="logical" > ${s} </v>`),
          `${indent} </varray>`,
        ]
      : []),
    `${indent}</structure>`,
  ];
  const lines = [
    '<?xml version="1.0" encoding="ISO-8859-1"?>',
    '<modeling>',
    ' <generator>',
    '  <i name="program" type="string">vasp </i>',
    '  <i name="version" type="string">6.3.0  </i>',
    ' </generator>',
    ' <incar>',
    '  <i type="int" name="IBRION">     2</i>',
    `  <i type="int" name="NSW">    ${o.nsw ?? 99}</i>`,
    '  <i name="EDIFFG">     -0.02000000</i>',
    ' </incar>',
    ' <!-- a comment with <tags> & "quotes" inside -->',
    ' <parameters>',
    '  <separator name="ionic" >',
    `   <i type="int" name="NSW">    ${o.nsw ?? 99}</i>`,
    '   <i type="int" name="IBRION">     2</i>',
    '   <i name="EDIFFG">     -0.02000000</i>',
    '  </separator>',
    ' </parameters>',
    ' <atominfo>',
    `  <atoms>       ${species.length} </atoms>`,
    '  <types>       2 </types>',
    '  <array name="atoms" >',
    '   <dimension dim="1">ion</dimension>',
    '   <field type="string">element</field>',
    '   <field type="int">atomtype</field>',
    '   <set>',
    ...species.map((s, i) => `    <rc><c>${s.padEnd(2)}</c><c>   ${i === 0 ? 1 : 2}</c></rc>`),
    '   </set>',
    '  </array>',
    ' </atominfo>',
    ...structure('initialpos', steps[0]?.positions ?? []),
  ];
  steps.forEach((step, s) => {
    lines.push(
      ' <calculation>',
      '  <scstep>',
      '   <energy>',
      `    <i name="e_fr_energy">   ${f(step.toten - 0.3, 16, 8)} </i>`,
      `    <i name="e_0_energy">    ${f(step.sigma0 - 0.3, 16, 8)} </i>`,
      '   </energy>',
      '  </scstep>',
      '  <scstep>',
      '   <energy>',
      `    <i name="e_fr_energy">   ${f(step.toten - 0.001, 16, 8)} </i>`,
      `    <i name="e_wo_entrp">    ${f(step.toten + 0.02, 16, 8)} </i>`,
      `    <i name="e_0_energy">    ${f(step.sigma0 - 0.001, 16, 8)} </i>`,
      '   </energy>',
      '  </scstep>',
      ...structure(undefined, step.positions, step.lattice, '  '),
      '  <varray name="forces" >',
      ...step.forces.map((x) => `   ${v(x)}`),
      '  </varray>',
      '  <varray name="stress" >',
      ...[
        [step.stress[0]!, step.stress[3]!, step.stress[5]!],
        [step.stress[3]!, step.stress[1]!, step.stress[4]!],
        [step.stress[5]!, step.stress[4]!, step.stress[2]!],
      ].map((x) => `   ${v(x)}`),
      '  </varray>',
      '  <energy>',
      `   <i name="e_fr_energy">   ${f(step.toten, 16, 8)} </i>`,
      `   <i name="e_wo_entrp">    ${f(step.toten + 0.02, 16, 8)} </i>`,
      // VASP's bug that ASE and pymatgen work round: the step's own e_0_energy is wrong (0 here).
      `   <i name="e_0_energy">    ${f(0, 16, 8)} </i>`,
      '  </energy>',
    );
    if (s === steps.length - 1 && o.eigenvalues) {
      lines.push(
        '  <eigenvalues>',
        '   <array>',
        '    <dimension dim="1">band</dimension>',
        '    <dimension dim="2">kpoint</dimension>',
        '    <dimension dim="3">spin</dimension>',
        '    <field>eigene</field>',
        '    <field>occ</field>',
        '    <set>',
      );
      o.eigenvalues.forEach((spin, i) => {
        lines.push(`     <set comment="spin ${i + 1}">`);
        spin.forEach((k, j) => {
          lines.push(`      <set comment="kpoint ${j + 1}">`);
          for (const [e, occ] of k as unknown as [number, number][]) lines.push(`       <r>${f(e, 10, 4)}${f(occ, 10, 4)} </r>`);
          lines.push('      </set>');
        });
        lines.push('     </set>');
      });
      lines.push('    </set>', '   </array>', '  </eigenvalues>');
    }
    if (s === steps.length - 1 && o.efermi !== undefined) {
      lines.push(
        '  <dos>',
        `   <i name="efermi">     ${f(o.efermi, 12, 8)} </i>`,
        '   <total>',
        '    <array>',
        '     <set>',
        '      <set comment="spin 1">',
        '       <r>   -10.0000     0.0000     0.0000 </r>',
        '      </set>',
        '     </set>',
        '    </array>',
        '   </total>',
        '  </dos>',
      );
    }
    lines.push(' </calculation>');
  });
  if (o.finished ?? true) {
    lines.push(...structure('finalpos', steps[steps.length - 1]?.positions ?? []), '</modeling>', '');
  }
  return lines.join('\n');
}
