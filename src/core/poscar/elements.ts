/**
 * The periodic table as the POSCAR core needs it: symbols, atomic numbers, standard atomic masses
 * (IUPAC; the most stable isotope's mass number for elements without a standard weight) and single-bond
 * covalent radii (Cordero et al., Dalton Trans. 2008, 2832; low-spin values for Mn, Fe, Co; elements past
 * Cm have none). Pure data: no `vscode`.
 */

export interface Element {
  z: number;
  symbol: string;
  name: string;
  /** g/mol */
  mass: number;
  /** Å; undefined where no value is tabulated. */
  covalentRadius?: number;
}

// symbol, name, mass, covalent radius (Å, 0 = none)
const TABLE: readonly (readonly [string, string, number, number])[] = [
  ['H', 'hydrogen', 1.008, 0.31],
  ['He', 'helium', 4.0026, 0.28],
  ['Li', 'lithium', 6.94, 1.28],
  ['Be', 'beryllium', 9.0122, 0.96],
  ['B', 'boron', 10.81, 0.84],
  ['C', 'carbon', 12.011, 0.76],
  ['N', 'nitrogen', 14.007, 0.71],
  ['O', 'oxygen', 15.999, 0.66],
  ['F', 'fluorine', 18.998, 0.57],
  ['Ne', 'neon', 20.18, 0.58],
  ['Na', 'sodium', 22.99, 1.66],
  ['Mg', 'magnesium', 24.305, 1.41],
  ['Al', 'aluminium', 26.982, 1.21],
  ['Si', 'silicon', 28.085, 1.11],
  ['P', 'phosphorus', 30.974, 1.07],
  ['S', 'sulfur', 32.06, 1.05],
  ['Cl', 'chlorine', 35.45, 1.02],
  ['Ar', 'argon', 39.948, 1.06],
  ['K', 'potassium', 39.098, 2.03],
  ['Ca', 'calcium', 40.078, 1.76],
  ['Sc', 'scandium', 44.956, 1.7],
  ['Ti', 'titanium', 47.867, 1.6],
  ['V', 'vanadium', 50.942, 1.53],
  ['Cr', 'chromium', 51.996, 1.39],
  ['Mn', 'manganese', 54.938, 1.39],
  ['Fe', 'iron', 55.845, 1.32],
  ['Co', 'cobalt', 58.933, 1.26],
  ['Ni', 'nickel', 58.693, 1.24],
  ['Cu', 'copper', 63.546, 1.32],
  ['Zn', 'zinc', 65.38, 1.22],
  ['Ga', 'gallium', 69.723, 1.22],
  ['Ge', 'germanium', 72.63, 1.2],
  ['As', 'arsenic', 74.922, 1.19],
  ['Se', 'selenium', 78.971, 1.2],
  ['Br', 'bromine', 79.904, 1.2],
  ['Kr', 'krypton', 83.798, 1.16],
  ['Rb', 'rubidium', 85.468, 2.2],
  ['Sr', 'strontium', 87.62, 1.95],
  ['Y', 'yttrium', 88.906, 1.9],
  ['Zr', 'zirconium', 91.224, 1.75],
  ['Nb', 'niobium', 92.906, 1.64],
  ['Mo', 'molybdenum', 95.95, 1.54],
  ['Tc', 'technetium', 98, 1.47],
  ['Ru', 'ruthenium', 101.07, 1.46],
  ['Rh', 'rhodium', 102.91, 1.42],
  ['Pd', 'palladium', 106.42, 1.39],
  ['Ag', 'silver', 107.87, 1.45],
  ['Cd', 'cadmium', 112.41, 1.44],
  ['In', 'indium', 114.82, 1.42],
  ['Sn', 'tin', 118.71, 1.39],
  ['Sb', 'antimony', 121.76, 1.39],
  ['Te', 'tellurium', 127.6, 1.38],
  ['I', 'iodine', 126.9, 1.39],
  ['Xe', 'xenon', 131.29, 1.4],
  ['Cs', 'caesium', 132.91, 2.44],
  ['Ba', 'barium', 137.33, 2.15],
  ['La', 'lanthanum', 138.91, 2.07],
  ['Ce', 'cerium', 140.12, 2.04],
  ['Pr', 'praseodymium', 140.91, 2.03],
  ['Nd', 'neodymium', 144.24, 2.01],
  ['Pm', 'promethium', 145, 1.99],
  ['Sm', 'samarium', 150.36, 1.98],
  ['Eu', 'europium', 151.96, 1.98],
  ['Gd', 'gadolinium', 157.25, 1.96],
  ['Tb', 'terbium', 158.93, 1.94],
  ['Dy', 'dysprosium', 162.5, 1.92],
  ['Ho', 'holmium', 164.93, 1.92],
  ['Er', 'erbium', 167.26, 1.89],
  ['Tm', 'thulium', 168.93, 1.9],
  ['Yb', 'ytterbium', 173.05, 1.87],
  ['Lu', 'lutetium', 174.97, 1.87],
  ['Hf', 'hafnium', 178.49, 1.75],
  ['Ta', 'tantalum', 180.95, 1.7],
  ['W', 'tungsten', 183.84, 1.62],
  ['Re', 'rhenium', 186.21, 1.51],
  ['Os', 'osmium', 190.23, 1.44],
  ['Ir', 'iridium', 192.22, 1.41],
  ['Pt', 'platinum', 195.08, 1.36],
  ['Au', 'gold', 196.97, 1.36],
  ['Hg', 'mercury', 200.59, 1.32],
  ['Tl', 'thallium', 204.38, 1.45],
  ['Pb', 'lead', 207.2, 1.46],
  ['Bi', 'bismuth', 208.98, 1.48],
  ['Po', 'polonium', 209, 1.4],
  ['At', 'astatine', 210, 1.5],
  ['Rn', 'radon', 222, 1.5],
  ['Fr', 'francium', 223, 2.6],
  ['Ra', 'radium', 226, 2.21],
  ['Ac', 'actinium', 227, 2.15],
  ['Th', 'thorium', 232.04, 2.06],
  ['Pa', 'protactinium', 231.04, 2.0],
  ['U', 'uranium', 238.03, 1.96],
  ['Np', 'neptunium', 237, 1.9],
  ['Pu', 'plutonium', 244, 1.87],
  ['Am', 'americium', 243, 1.8],
  ['Cm', 'curium', 247, 1.69],
  ['Bk', 'berkelium', 247, 0],
  ['Cf', 'californium', 251, 0],
  ['Es', 'einsteinium', 252, 0],
  ['Fm', 'fermium', 257, 0],
  ['Md', 'mendelevium', 258, 0],
  ['No', 'nobelium', 259, 0],
  ['Lr', 'lawrencium', 266, 0],
  ['Rf', 'rutherfordium', 267, 0],
  ['Db', 'dubnium', 268, 0],
  ['Sg', 'seaborgium', 269, 0],
  ['Bh', 'bohrium', 270, 0],
  ['Hs', 'hassium', 269, 0],
  ['Mt', 'meitnerium', 278, 0],
  ['Ds', 'darmstadtium', 281, 0],
  ['Rg', 'roentgenium', 282, 0],
  ['Cn', 'copernicium', 285, 0],
  ['Nh', 'nihonium', 286, 0],
  ['Fl', 'flerovium', 289, 0],
  ['Mc', 'moscovium', 290, 0],
  ['Lv', 'livermorium', 293, 0],
  ['Ts', 'tennessine', 294, 0],
  ['Og', 'oganesson', 294, 0],
];

export const ELEMENTS: readonly Element[] = TABLE.map(([symbol, name, mass, radius], i) => ({
  z: i + 1,
  symbol,
  name,
  mass,
  ...(radius > 0 ? { covalentRadius: radius } : {}),
}));

const BY_SYMBOL = new Map(ELEMENTS.map((e) => [e.symbol, e]));

/** The element with this exact symbol ('Fe', not 'fe' or 'FE'), or undefined. */
export function element(symbol: string): Element | undefined {
  return BY_SYMBOL.get(symbol);
}

/** Avogadro's number times 1e-24 (Å³ per cm³): g/mol per Å³ -> g/cm³ is mass / (volume * this). */
export const AVOGADRO_CM3_PER_A3 = 0.602214076;
