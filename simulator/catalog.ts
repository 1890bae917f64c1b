// The fixed sample data the simulated organizations are drawn from: names, classes, establishments,
// products and the notes parents write (allergies and diets among them). Plain data; the seeded builders
// decide who gets what.

export const STUDENT_FIRST_NAMES = [
  'Ana',
  'Beatriz',
  'Carolina',
  'Diogo',
  'Duarte',
  'Francisca',
  'Gonçalo',
  'Inês',
  'João',
  'Leonor',
  'Mariana',
  'Martim',
  'Matilde',
  'Miguel',
  'Pedro',
  'Rafael',
  'Rita',
  'Rodrigo',
  'Santiago',
  'Sofia',
  'Tomás',
  'Vasco',
] as const;

export const ADULT_FIRST_NAMES = [
  'Alexandra',
  'Bruno',
  'Catarina',
  'Filipe',
  'Helena',
  'Isabel',
  'Jorge',
  'Luís',
  'Marta',
  'Nuno',
  'Paula',
  'Ricardo',
  'Sandra',
  'Teresa',
] as const;

export const LAST_NAMES = [
  'Almeida',
  'Carvalho',
  'Costa',
  'Ferreira',
  'Gomes',
  'Lopes',
  'Marques',
  'Martins',
  'Oliveira',
  'Pereira',
  'Ribeiro',
  'Rodrigues',
  'Santos',
  'Silva',
  'Sousa',
] as const;

export const CLASSES = ['5A', '5B', '6A', '7A', '7B', '8A', '9B', '10C', '11A', '12B'] as const;

export interface EstablishmentTemplate {
  name: string;
  pickupTimeType: string;
  pickupTimes: string[];
  workingDays: number[];
  orderClosingTime: string;
  menuClosingTime: string | null;
  dailyOrderClosure: 0 | 1;
}

const WEEKDAYS = [1, 2, 3, 4, 5];

export const ESTABLISHMENTS: readonly EstablishmentTemplate[] = [
  {
    name: 'Main Canteen',
    pickupTimeType: 'anytime',
    pickupTimes: [],
    workingDays: WEEKDAYS,
    orderClosingTime: '10:30:00',
    menuClosingTime: '09:30:00',
    dailyOrderClosure: 1,
  },
  {
    name: 'Café Bar',
    pickupTimeType: 'anytime',
    pickupTimes: [],
    workingDays: [1, 2, 3, 4, 5, 6],
    orderClosingTime: '17:00:00',
    menuClosingTime: null,
    dailyOrderClosure: 0,
  },
  {
    // The spec does not name the restricted pickup type; "interval" echoes the field that lists the slots.
    name: 'Sports Hall Kiosk',
    pickupTimeType: 'interval',
    pickupTimes: ['10:30', '12:30', '15:30'],
    workingDays: WEEKDAYS,
    orderClosingTime: '09:00:00',
    menuClosingTime: null,
    dailyOrderClosure: 1,
  },
  {
    name: 'Staff Room Counter',
    pickupTimeType: 'interval',
    pickupTimes: ['12:00', '12:30', '13:00', '13:30'],
    workingDays: WEEKDAYS,
    orderClosingTime: '11:00:00',
    menuClosingTime: '10:00:00',
    dailyOrderClosure: 1,
  },
];

export interface ProductTemplate {
  sku: string;
  name: string;
  description: string | null;
  priceCents: number;
  isMenu: boolean;
  image: string;
  /** Younger classes pay a reduced menu price. */
  reducedPriceCents?: number;
  /** Not sold to students. */
  adultsOnly?: boolean;
}

export const PRODUCTS: readonly ProductTemplate[] = [
  {
    sku: 'MENU-DAY',
    name: 'Menu of the day',
    description: 'Soup, main course, bread and a piece of fruit',
    priceCents: 450,
    isMenu: true,
    image: 'https://images.example.org/menu-of-the-day.jpg',
    reducedPriceCents: 350,
  },
  {
    sku: 'MENU-VEG',
    name: 'Vegetarian menu',
    description: 'Soup, vegetarian main course, bread and a piece of fruit',
    priceCents: 450,
    isMenu: true,
    image: 'https://images.example.org/vegetarian-menu.jpg',
    reducedPriceCents: 350,
  },
  { sku: 'SOUP', name: 'Vegetable soup', description: null, priceCents: 120, isMenu: false, image: '' },
  {
    sku: 'SANDWICH-HAM',
    name: 'Ham and cheese sandwich',
    description: 'Wholemeal bread',
    priceCents: 180,
    isMenu: false,
    image: '',
  },
  {
    sku: 'PASTEL-NATA',
    name: 'Pastel de nata',
    description: null,
    priceCents: 110,
    isMenu: false,
    image: 'https://images.example.org/pastel-de-nata.jpg',
  },
  { sku: 'FRUIT', name: 'Piece of fruit', description: 'Seasonal', priceCents: 50, isMenu: false, image: '' },
  {
    sku: 'JUICE',
    name: 'Orange juice',
    description: 'Freshly squeezed, 25 cl',
    priceCents: 150,
    isMenu: false,
    image: '',
  },
  { sku: 'WATER', name: 'Water 33 cl', description: null, priceCents: 60, isMenu: false, image: '' },
  {
    sku: 'COFFEE',
    name: 'Espresso',
    description: null,
    priceCents: 70,
    isMenu: false,
    image: '',
    adultsOnly: true,
  },
];

/**
 * Notes a parent writes on a whole order; most name an allergy or a diet, as the ones a kitchen must not
 * miss do, a few in Portuguese or Spanish with their accents. Plain text, one line each.
 */
export const ORDER_NOTES = [
  'Allergic to peanuts — no nuts at all.',
  'Coeliac: gluten-free only.',
  'Lactose intolerant.',
  'Vegetarian.',
  'Halal, please.',
  'Egg allergy.',
  'Sesame allergy: no seeds on the bread.',
  'Severe shellfish allergy.',
  'Vegan: no dairy, no eggs.',
  'No pork, please.',
  'Alergia a frutos secos.',
  'Sem glúten, por favor.',
  'Intolerância à lactose.',
  'Sin gluten, por favor.',
  'No onions, please.',
  'Pick up at the second break.',
  'Her older brother will collect it.',
  'Small portion, please.',
] as const;

/** Notes on one item of an order: how to serve it, or what to leave out of it and why. */
export const ITEM_NOTES = [
  'Cut in small pieces.',
  'Cut in half, please.',
  'No sauce.',
  'Extra bread.',
  'Not too hot.',
  'Gluten-free bread, please.',
  'No cheese: lactose intolerant.',
  'Nut allergy: nothing with nuts.',
  'Egg allergy: no mayonnaise.',
  'No sesame seeds.',
  'Sem lactose.',
  'Sem cebola, por favor.',
] as const;
