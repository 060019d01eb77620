// Time zones exactly as Healthchecks accepts them (hc/lib/tz.py at 29b5ec25): `all_timezones`
// and `legacy_timezones`, copied rather than taken from Intl, because ICU's list differs both
// ways (it lists Asia/Calcutta and America/Coyhaique; Healthchecks accepts Etc/GMT+5, GMT,
// Europe/Belfast as they are). Names are case-sensitive; a legacy name is replaced by its
// canonical target before the check, and the target is what gets stored.
// Every name below also works with Node's Intl (a test guards that), so schedules can use it.

/** all_timezones, grouped by area to keep this file readable; '' holds names without an area. */
const ZONES: Record<string, string> = {
  Africa: `
    Abidjan Accra Addis_Ababa Algiers Asmara Bamako Bangui Banjul Bissau Blantyre Brazzaville
    Bujumbura Cairo Casablanca Ceuta Conakry Dakar Dar_es_Salaam Djibouti Douala El_Aaiun Freetown
    Gaborone Harare Johannesburg Juba Kampala Khartoum Kigali Kinshasa Lagos Libreville Lome Luanda
    Lubumbashi Lusaka Malabo Maputo Maseru Mbabane Mogadishu Monrovia Nairobi Ndjamena Niamey
    Nouakchott Ouagadougou Porto-Novo Sao_Tome Timbuktu Tripoli Tunis Windhoek`,
  America: `
    Adak Anchorage Anguilla Antigua Araguaina Argentina/Buenos_Aires Argentina/Catamarca
    Argentina/Cordoba Argentina/Jujuy Argentina/La_Rioja Argentina/Mendoza Argentina/Rio_Gallegos
    Argentina/Salta Argentina/San_Juan Argentina/San_Luis Argentina/Tucuman Argentina/Ushuaia Aruba
    Asuncion Atikokan Atka Bahia Bahia_Banderas Barbados Belem Belize Blanc-Sablon Boa_Vista Bogota
    Boise Cambridge_Bay Campo_Grande Cancun Caracas Cayenne Cayman Chicago Chihuahua Ciudad_Juarez
    Coral_Harbour Costa_Rica Creston Cuiaba Curacao Danmarkshavn Dawson Dawson_Creek Denver Detroit
    Dominica Edmonton Eirunepe El_Salvador Ensenada Fort_Nelson Fortaleza Glace_Bay Goose_Bay
    Grand_Turk Grenada Guadeloupe Guatemala Guayaquil Guyana Halifax Havana Hermosillo
    Indiana/Indianapolis Indiana/Knox Indiana/Marengo Indiana/Petersburg Indiana/Tell_City
    Indiana/Vevay Indiana/Vincennes Indiana/Winamac Inuvik Iqaluit Jamaica Juneau
    Kentucky/Louisville Kentucky/Monticello Kralendijk La_Paz Lima Los_Angeles Lower_Princes Maceio
    Managua Manaus Marigot Martinique Matamoros Mazatlan Menominee Merida Metlakatla Mexico_City
    Miquelon Moncton Monterrey Montevideo Montreal Montserrat Nassau New_York Nipigon Nome Noronha
    North_Dakota/Beulah North_Dakota/Center North_Dakota/New_Salem Nuuk Ojinaga Panama Pangnirtung
    Paramaribo Phoenix Port-au-Prince Port_of_Spain Porto_Acre Porto_Velho Puerto_Rico Punta_Arenas
    Rainy_River Rankin_Inlet Recife Regina Resolute Rio_Branco Santa_Isabel Santarem Santiago
    Santo_Domingo Sao_Paulo Scoresbysund Shiprock Sitka St_Barthelemy St_Johns St_Kitts St_Lucia
    St_Thomas St_Vincent Swift_Current Tegucigalpa Thule Thunder_Bay Tijuana Toronto Tortola
    Vancouver Virgin Whitehorse Winnipeg Yakutat Yellowknife`,
  Antarctica: `
    Casey Davis DumontDUrville Macquarie Mawson McMurdo Palmer Rothera Syowa Troll Vostok`,
  Arctic: `
    Longyearbyen`,
  Asia: `
    Aden Almaty Amman Anadyr Aqtau Aqtobe Ashgabat Atyrau Baghdad Bahrain Baku Bangkok Barnaul
    Beirut Bishkek Brunei Chita Chongqing Colombo Damascus Dhaka Dili Dubai Dushanbe Famagusta Gaza
    Harbin Hebron Ho_Chi_Minh Hong_Kong Hovd Irkutsk Istanbul Jakarta Jayapura Jerusalem Kabul
    Kamchatka Karachi Kashgar Kathmandu Khandyga Kolkata Krasnoyarsk Kuala_Lumpur Kuching Kuwait
    Macau Magadan Makassar Manila Muscat Nicosia Novokuznetsk Novosibirsk Omsk Oral Phnom_Penh
    Pontianak Pyongyang Qatar Qostanay Qyzylorda Riyadh Sakhalin Samarkand Seoul Shanghai Singapore
    Srednekolymsk Taipei Tashkent Tbilisi Tehran Tel_Aviv Thimphu Tokyo Tomsk Ulaanbaatar Urumqi
    Ust-Nera Vientiane Vladivostok Yakutsk Yangon Yekaterinburg Yerevan`,
  Atlantic: `
    Azores Bermuda Canary Cape_Verde Faroe Jan_Mayen Madeira Reykjavik South_Georgia St_Helena
    Stanley`,
  Australia: `
    Adelaide Brisbane Broken_Hill Canberra Currie Darwin Eucla Hobart Lindeman Lord_Howe Melbourne
    Perth Sydney Yancowinna`,
  Etc: `
    GMT GMT+0 GMT+1 GMT+10 GMT+11 GMT+12 GMT+2 GMT+3 GMT+4 GMT+5 GMT+6 GMT+7 GMT+8 GMT+9 GMT-0 GMT-1
    GMT-10 GMT-11 GMT-12 GMT-13 GMT-14 GMT-2 GMT-3 GMT-4 GMT-5 GMT-6 GMT-7 GMT-8 GMT-9 GMT0
    Greenwich UCT Universal UTC Zulu`,
  Europe: `
    Amsterdam Andorra Astrakhan Athens Belfast Belgrade Berlin Bratislava Brussels Bucharest
    Budapest Busingen Chisinau Copenhagen Dublin Gibraltar Guernsey Helsinki Isle_of_Man Istanbul
    Jersey Kaliningrad Kirov Kyiv Lisbon Ljubljana London Luxembourg Madrid Malta Mariehamn Minsk
    Monaco Moscow Nicosia Oslo Paris Podgorica Prague Riga Rome Samara San_Marino Sarajevo Saratov
    Simferopol Skopje Sofia Stockholm Tallinn Tirane Tiraspol Ulyanovsk Vaduz Vatican Vienna Vilnius
    Volgograd Warsaw Zagreb Zurich`,
  '': `
    GMT UTC`,
  Indian: `
    Antananarivo Chagos Christmas Cocos Comoro Kerguelen Mahe Maldives Mauritius Mayotte Reunion`,
  Pacific: `
    Apia Auckland Bougainville Chatham Chuuk Easter Efate Fakaofo Fiji Funafuti Galapagos Gambier
    Guadalcanal Guam Honolulu Johnston Kanton Kiritimati Kosrae Kwajalein Majuro Marquesas Midway
    Nauru Niue Norfolk Noumea Pago_Pago Palau Pitcairn Pohnpei Port_Moresby Rarotonga Saipan Samoa
    Tahiti Tarawa Tongatapu Wake Wallis Yap`,
};

/** legacy_timezones as old=new pairs. */
const LEGACY = `
  Africa/Asmera=Africa/Nairobi America/Argentina/ComodRivadavia=America/Argentina/Catamarca
  America/Buenos_Aires=America/Argentina/Buenos_Aires America/Catamarca=America/Argentina/Catamarca
  America/Cordoba=America/Argentina/Cordoba America/Fort_Wayne=America/Indiana/Indianapolis
  America/Godthab=America/Nuuk America/Indianapolis=America/Indiana/Indianapolis
  America/Jujuy=America/Argentina/Jujuy America/Knox_IN=America/Indiana/Knox
  America/Louisville=America/Kentucky/Louisville America/Mendoza=America/Argentina/Mendoza
  America/Rosario=America/Argentina/Cordoba Antarctica/South_Pole=Pacific/Auckland
  Asia/Ashkhabad=Asia/Ashgabat Asia/Calcutta=Asia/Kolkata Asia/Choibalsan=Asia/Ulaanbaatar
  Asia/Chungking=Asia/Shanghai Asia/Dacca=Asia/Dhaka Asia/Katmandu=Asia/Kathmandu
  Asia/Macao=Asia/Macau Asia/Rangoon=Asia/Yangon Asia/Saigon=Asia/Ho_Chi_Minh
  Asia/Thimbu=Asia/Thimphu Asia/Ujung_Pandang=Asia/Makassar Asia/Ulan_Bator=Asia/Ulaanbaatar
  Atlantic/Faeroe=Atlantic/Faroe Australia/ACT=Australia/Sydney Australia/LHI=Australia/Lord_Howe
  Australia/North=Australia/Darwin Australia/NSW=Australia/Sydney
  Australia/Queensland=Australia/Brisbane Australia/South=Australia/Adelaide
  Australia/Tasmania=Australia/Hobart Australia/Victoria=Australia/Melbourne
  Australia/West=Australia/Perth Brazil/Acre=America/Rio_Branco Brazil/DeNoronha=America/Noronha
  Brazil/East=America/Sao_Paulo Brazil/West=America/Manaus Canada/Atlantic=America/Halifax
  Canada/Central=America/Winnipeg Canada/Eastern=America/Toronto Canada/Mountain=America/Edmonton
  Canada/Newfoundland=America/St_Johns Canada/Pacific=America/Vancouver
  Canada/Saskatchewan=America/Regina Canada/Yukon=America/Whitehorse CET=Europe/Brussels
  Chile/Continental=America/Santiago Chile/EasterIsland=Pacific/Easter CST6CDT=America/Chicago
  Cuba=America/Havana EET=Europe/Athens Egypt=Africa/Cairo Eire=Europe/Dublin EST=America/Panama
  EST5EDT=America/New_York Europe/Kiev=Europe/Kyiv Europe/Uzhgorod=Europe/Kyiv
  Europe/Zaporozhye=Europe/Kyiv GB=Europe/London GB-Eire=Europe/London GMT+0=Etc/GMT GMT-0=Etc/GMT
  GMT0=Etc/GMT Greenwich=Etc/GMT Hongkong=Asia/Hong_Kong HST=Pacific/Honolulu Iceland=Africa/Abidjan
  Iran=Asia/Tehran Israel=Asia/Jerusalem Jamaica=America/Jamaica Japan=Asia/Tokyo
  Kwajalein=Pacific/Kwajalein Libya=Africa/Tripoli MET=Europe/Brussels
  Mexico/BajaNorte=America/Tijuana Mexico/BajaSur=America/Mazatlan
  Mexico/General=America/Mexico_City MST=America/Phoenix MST7MDT=America/Denver
  Navajo=America/Denver NZ=Pacific/Auckland NZ-CHAT=Pacific/Chatham Pacific/Enderbury=Pacific/Kanton
  Pacific/Ponape=Pacific/Guadalcanal Pacific/Truk=Pacific/Port_Moresby Poland=Europe/Warsaw
  Portugal=Europe/Lisbon PRC=Asia/Shanghai PST8PDT=America/Los_Angeles ROC=Asia/Taipei
  ROK=Asia/Seoul Singapore=Asia/Singapore Turkey=Europe/Istanbul UCT=Etc/UTC Universal=Etc/UTC
  US/Alaska=America/Anchorage US/Aleutian=America/Adak US/Arizona=America/Phoenix
  US/Central=America/Chicago US/East-Indiana=America/Indiana/Indianapolis
  US/Eastern=America/New_York US/Hawaii=Pacific/Honolulu US/Indiana-Starke=America/Indiana/Knox
  US/Michigan=America/Detroit US/Mountain=America/Denver US/Pacific=America/Los_Angeles
  US/Samoa=Pacific/Pago_Pago W-SU=Europe/Moscow WET=Europe/Lisbon Zulu=Etc/UTC`;

let zones: Set<string> | undefined;
let legacy: Map<string, string> | undefined;

function load(): void {
  zones = new Set();
  for (const [area, names] of Object.entries(ZONES)) {
    for (const name of names.trim().split(/\s+/)) zones.add(area ? `${area}/${name}` : name);
  }
  legacy = new Map(LEGACY.trim().split(/\s+/).map((pair) => pair.split('=') as [string, string]));
}

/** The canonical name to store for `name`, or null when Healthchecks would reject it. */
export function canonicalTimezone(name: string): string | null {
  if (!zones) load();
  const canonical = legacy!.get(name) ?? name;
  return zones!.has(canonical) ? canonical : null;
}

/** Every name canonicalTimezone accepts as is, sorted. */
export function allTimezones(): string[] {
  if (!zones) load();
  return [...zones!].sort();
}
