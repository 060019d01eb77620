// Time zone names as Healthchecks accepts them: canonical IANA names (case-sensitive), with
// legacy aliases mapped to the canonical name that is stored and returned.
const LEGACY: Record<string, string> = {
  'Europe/Kiev': 'Europe/Kyiv', 'Europe/Uzhgorod': 'Europe/Kyiv', 'Europe/Zaporozhye': 'Europe/Kyiv',
  UCT: 'Etc/UTC', Universal: 'Etc/UTC', Zulu: 'Etc/UTC', 'Etc/UCT': 'Etc/UTC', 'Etc/Universal': 'Etc/UTC', 'Etc/Zulu': 'Etc/UTC',
  GMT: 'Etc/GMT', GMT0: 'Etc/GMT', 'GMT+0': 'Etc/GMT', 'GMT-0': 'Etc/GMT', Greenwich: 'Etc/GMT',
  'Etc/GMT0': 'Etc/GMT', 'Etc/GMT+0': 'Etc/GMT', 'Etc/GMT-0': 'Etc/GMT', 'Etc/Greenwich': 'Etc/GMT',
  CET: 'Europe/Brussels', MET: 'Europe/Brussels', EET: 'Europe/Athens', WET: 'Europe/Lisbon',
  EST: 'America/Panama', MST: 'America/Phoenix', HST: 'Pacific/Honolulu',
  EST5EDT: 'America/New_York', CST6CDT: 'America/Chicago', MST7MDT: 'America/Denver', PST8PDT: 'America/Los_Angeles',
  'US/Eastern': 'America/New_York', 'US/Central': 'America/Chicago', 'US/Mountain': 'America/Denver',
  'US/Pacific': 'America/Los_Angeles', 'US/Alaska': 'America/Anchorage', 'US/Hawaii': 'Pacific/Honolulu',
  'US/Arizona': 'America/Phoenix', 'US/East-Indiana': 'America/Indiana/Indianapolis', 'US/Michigan': 'America/Detroit',
  'US/Aleutian': 'America/Adak', 'US/Samoa': 'Pacific/Pago_Pago', 'US/Indiana-Starke': 'America/Indiana/Knox',
  'Canada/Atlantic': 'America/Halifax', 'Canada/Central': 'America/Winnipeg', 'Canada/Eastern': 'America/Toronto',
  'Canada/Mountain': 'America/Edmonton', 'Canada/Newfoundland': 'America/St_Johns', 'Canada/Pacific': 'America/Vancouver',
  'Canada/Saskatchewan': 'America/Regina', 'Canada/Yukon': 'America/Whitehorse',
  'Asia/Calcutta': 'Asia/Kolkata', 'Asia/Saigon': 'Asia/Ho_Chi_Minh', 'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon', 'Asia/Dacca': 'Asia/Dhaka', 'Asia/Thimbu': 'Asia/Thimphu', 'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Asia/Macao': 'Asia/Macau', 'Asia/Ujung_Pandang': 'Asia/Makassar', 'Asia/Chongqing': 'Asia/Shanghai', 'Asia/Chungking': 'Asia/Shanghai',
  'Asia/Harbin': 'Asia/Shanghai', 'Asia/Tel_Aviv': 'Asia/Jerusalem', 'Asia/Istanbul': 'Europe/Istanbul', 'Asia/Ashkhabad': 'Asia/Ashgabat',
  'Europe/Belfast': 'Europe/London', 'Europe/Nicosia': 'Asia/Nicosia', 'Europe/Tiraspol': 'Europe/Chisinau',
  GB: 'Europe/London', 'GB-Eire': 'Europe/London', Eire: 'Europe/Dublin', Portugal: 'Europe/Lisbon', Poland: 'Europe/Warsaw',
  Turkey: 'Europe/Istanbul', Egypt: 'Africa/Cairo', Libya: 'Africa/Tripoli', Iran: 'Asia/Tehran', Israel: 'Asia/Jerusalem',
  Japan: 'Asia/Tokyo', ROK: 'Asia/Seoul', PRC: 'Asia/Shanghai', ROC: 'Asia/Taipei', Hongkong: 'Asia/Hong_Kong',
  Singapore: 'Asia/Singapore', Iceland: 'Atlantic/Reykjavik', Jamaica: 'America/Jamaica', Cuba: 'America/Havana',
  Navajo: 'America/Denver', NZ: 'Pacific/Auckland', 'NZ-CHAT': 'Pacific/Chatham', Kwajalein: 'Pacific/Kwajalein', 'W-SU': 'Europe/Moscow',
  'Australia/ACT': 'Australia/Sydney', 'Australia/Canberra': 'Australia/Sydney', 'Australia/NSW': 'Australia/Sydney',
  'Australia/North': 'Australia/Darwin', 'Australia/Queensland': 'Australia/Brisbane', 'Australia/South': 'Australia/Adelaide',
  'Australia/Tasmania': 'Australia/Hobart', 'Australia/Victoria': 'Australia/Melbourne', 'Australia/West': 'Australia/Perth',
  'Australia/LHI': 'Australia/Lord_Howe', 'Australia/Yancowinna': 'Australia/Broken_Hill',
  'Brazil/East': 'America/Sao_Paulo', 'Brazil/West': 'America/Manaus', 'Brazil/Acre': 'America/Rio_Branco',
  'Chile/Continental': 'America/Santiago', 'Chile/EasterIsland': 'Pacific/Easter', 'Mexico/General': 'America/Mexico_City',
  'Mexico/BajaNorte': 'America/Tijuana', 'Mexico/BajaSur': 'America/Mazatlan',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires', 'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville', 'America/Godthab': 'America/Nuuk', 'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Samoa': 'Pacific/Pago_Pago', 'Pacific/Truk': 'Pacific/Chuuk', 'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton', 'Africa/Asmera': 'Africa/Asmara', 'Africa/Timbuktu': 'Africa/Bamako',
};

let known: Set<string> | undefined;

function knownZones(): Set<string> {
  if (!known) {
    known = new Set(Intl.supportedValuesOf('timeZone'));
    known.add('UTC');
    known.add('Etc/UTC');
    known.add('Etc/GMT');
    for (let n = 1; n <= 14; n++) {
      known.add(`Etc/GMT-${n}`);
      if (n <= 12) known.add(`Etc/GMT+${n}`);
    }
  }
  return known;
}

/** The canonical name to store for `name`, or null when it is not a time zone we accept. */
export function canonicalTimezone(name: string): string | null {
  const canonical = LEGACY[name] ?? name;
  if (knownZones().has(canonical)) return canonical;
  // ICU may list a zone under an older alias; accept canonical IANA names it can format.
  if (!/^[A-Z][A-Za-z_+\-]*(\/[A-Za-z0-9_+\-]+){1,2}$/.test(canonical)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: canonical });
    return canonical;
  } catch {
    return null;
  }
}
