/**
 * Philippine administrative places for demo data: every region, a few of each region's
 * provinces and their cities or municipalities. Barangays repeat their names all over the
 * country, so a shared list of common barangay names stands in for each town's own.
 */
export interface Region {
  name: string;
  provinces: { name: string; towns: string[] }[];
}

export const REGIONS: Region[] = [
  {
    name: "National Capital Region (NCR)",
    provinces: [
      {
        name: "Metro Manila",
        towns: ["Manila", "Quezon City", "Makati", "Pasig", "Taguig", "Caloocan", "Marikina"],
      },
    ],
  },
  {
    name: "Cordillera Administrative Region (CAR)",
    provinces: [
      { name: "Benguet", towns: ["Baguio City", "La Trinidad", "Itogon", "Tuba"] },
      { name: "Ifugao", towns: ["Lagawe", "Banaue", "Kiangan"] },
      { name: "Mountain Province", towns: ["Bontoc", "Sagada"] },
    ],
  },
  {
    name: "Region I (Ilocos Region)",
    provinces: [
      { name: "Ilocos Norte", towns: ["Laoag City", "Batac City", "Paoay", "Pagudpud"] },
      { name: "Ilocos Sur", towns: ["Vigan City", "Candon City", "Narvacan"] },
      { name: "La Union", towns: ["San Fernando City", "Agoo", "Bauang"] },
      { name: "Pangasinan", towns: ["Dagupan City", "Lingayen", "Urdaneta City", "Alaminos City"] },
    ],
  },
  {
    name: "Region II (Cagayan Valley)",
    provinces: [
      { name: "Cagayan", towns: ["Tuguegarao City", "Aparri", "Gattaran"] },
      { name: "Isabela", towns: ["Ilagan City", "Santiago City", "Cauayan City"] },
      { name: "Nueva Vizcaya", towns: ["Bayombong", "Solano", "Bambang"] },
    ],
  },
  {
    name: "Region III (Central Luzon)",
    provinces: [
      { name: "Bulacan", towns: ["Malolos City", "Meycauayan City", "San Jose del Monte City"] },
      { name: "Pampanga", towns: ["San Fernando City", "Angeles City", "Mabalacat City"] },
      { name: "Tarlac", towns: ["Tarlac City", "Capas", "Concepcion"] },
      { name: "Nueva Ecija", towns: ["Cabanatuan City", "Palayan City", "Gapan City"] },
      { name: "Zambales", towns: ["Olongapo City", "Iba", "Subic"] },
    ],
  },
  {
    name: "Region IV-A (CALABARZON)",
    provinces: [
      { name: "Cavite", towns: ["Bacoor City", "Dasmariñas City", "Imus City", "Tagaytay City"] },
      { name: "Laguna", towns: ["Calamba City", "Santa Rosa City", "San Pablo City", "Los Baños"] },
      { name: "Batangas", towns: ["Batangas City", "Lipa City", "Tanauan City"] },
      { name: "Rizal", towns: ["Antipolo City", "Cainta", "Taytay", "Binangonan"] },
      { name: "Quezon", towns: ["Lucena City", "Tayabas City", "Sariaya"] },
    ],
  },
  {
    name: "MIMAROPA Region",
    provinces: [
      { name: "Palawan", towns: ["Puerto Princesa City", "Coron", "El Nido", "Brooke's Point"] },
      { name: "Oriental Mindoro", towns: ["Calapan City", "Puerto Galera", "Pinamalayan"] },
      { name: "Marinduque", towns: ["Boac", "Gasan", "Santa Cruz"] },
    ],
  },
  {
    name: "Region V (Bicol Region)",
    provinces: [
      { name: "Albay", towns: ["Legazpi City", "Daraga", "Tabaco City", "Ligao City"] },
      { name: "Camarines Sur", towns: ["Naga City", "Iriga City", "Pili"] },
      { name: "Sorsogon", towns: ["Sorsogon City", "Bulan", "Gubat"] },
    ],
  },
  {
    name: "Region VI (Western Visayas)",
    provinces: [
      { name: "Iloilo", towns: ["Iloilo City", "Passi City", "Oton", "Pavia"] },
      { name: "Negros Occidental", towns: ["Bacolod City", "Silay City", "Talisay City"] },
      { name: "Capiz", towns: ["Roxas City", "Panay", "Pontevedra"] },
      { name: "Aklan", towns: ["Kalibo", "Malay", "Numancia"] },
    ],
  },
  {
    name: "Region VII (Central Visayas)",
    provinces: [
      { name: "Cebu", towns: ["Cebu City", "Mandaue City", "Lapu-Lapu City", "Talisay City"] },
      { name: "Bohol", towns: ["Tagbilaran City", "Panglao", "Jagna"] },
      { name: "Negros Oriental", towns: ["Dumaguete City", "Bais City", "Bayawan City"] },
    ],
  },
  {
    name: "Region VIII (Eastern Visayas)",
    provinces: [
      { name: "Leyte", towns: ["Tacloban City", "Ormoc City", "Palo", "Baybay City"] },
      { name: "Samar", towns: ["Catbalogan City", "Calbayog City"] },
      { name: "Southern Leyte", towns: ["Maasin City", "Sogod"] },
    ],
  },
  {
    name: "Region IX (Zamboanga Peninsula)",
    provinces: [
      { name: "Zamboanga del Sur", towns: ["Pagadian City", "Zamboanga City", "Molave"] },
      { name: "Zamboanga del Norte", towns: ["Dipolog City", "Dapitan City"] },
    ],
  },
  {
    name: "Region X (Northern Mindanao)",
    provinces: [
      {
        name: "Misamis Oriental",
        towns: ["Cagayan de Oro City", "Gingoog City", "El Salvador City"],
      },
      { name: "Bukidnon", towns: ["Malaybalay City", "Valencia City", "Manolo Fortich"] },
      { name: "Lanao del Norte", towns: ["Iligan City", "Tubod"] },
    ],
  },
  {
    name: "Region XI (Davao Region)",
    provinces: [
      { name: "Davao del Sur", towns: ["Davao City", "Digos City", "Santa Cruz"] },
      {
        name: "Davao del Norte",
        towns: ["Tagum City", "Panabo City", "Island Garden City of Samal"],
      },
      { name: "Davao Oriental", towns: ["Mati City", "Baganga"] },
    ],
  },
  {
    name: "Region XII (SOCCSKSARGEN)",
    provinces: [
      { name: "South Cotabato", towns: ["Koronadal City", "General Santos City", "Polomolok"] },
      { name: "Cotabato", towns: ["Kidapawan City", "Midsayap", "Kabacan"] },
      { name: "Sultan Kudarat", towns: ["Isulan", "Tacurong City"] },
    ],
  },
  {
    name: "Region XIII (Caraga)",
    provinces: [
      { name: "Agusan del Norte", towns: ["Butuan City", "Cabadbaran City"] },
      { name: "Surigao del Norte", towns: ["Surigao City", "General Luna"] },
      { name: "Surigao del Sur", towns: ["Tandag City", "Bislig City"] },
    ],
  },
  {
    name: "Bangsamoro Autonomous Region in Muslim Mindanao (BARMM)",
    provinces: [
      { name: "Maguindanao del Norte", towns: ["Cotabato City", "Datu Odin Sinsuat"] },
      { name: "Lanao del Sur", towns: ["Marawi City", "Malabang"] },
      { name: "Basilan", towns: ["Isabela City", "Lamitan City"] },
    ],
  },
];

export const BARANGAYS = [
  "Poblacion",
  "San Isidro",
  "San Jose",
  "Santo Niño",
  "San Roque",
  "Bagong Silang",
  "Santa Cruz",
  "San Antonio",
  "Mabini",
  "Rizal",
  "Bagumbayan",
  "San Vicente",
  "Malinis",
  "Maligaya",
  "San Miguel",
  "Santa Maria",
  "Bonifacio",
  "Del Pilar",
  "Magsaysay",
  "Kalayaan",
  "Sampaguita",
  "San Pedro",
  "Burgos",
  "Luna",
  "Quezon",
  "Mabuhay",
  "Bagong Pag-asa",
  "San Rafael",
  "Santo Rosario",
  "Dagatan",
];

export const STREETS = [
  "Rizal Street",
  "Mabini Street",
  "Bonifacio Avenue",
  "Luna Street",
  "Burgos Street",
  "Quezon Avenue",
  "Aguinaldo Highway",
  "Del Pilar Street",
  "Sampaguita Street",
  "National Road",
  "Purok 3",
  "Purok 5",
];
