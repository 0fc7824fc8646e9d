// Every word the page shows, in Thai and English, and the complete guide ("คำแนะนำฉบับสมบูรณ์").
//
// The engine (game.py) returns data only – card codes, seats, heartslib's IllegalAction codes – and
// this module words it. Both languages have exactly the same keys (tests/i18n.test.mjs checks that,
// and that every IllegalAction code of docs/errors.md has a refusal in each language).

export const LANGS = ["th", "en"];

const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

// A card as printed in running text: "2♣", "Q♠", "10♥" (the same in both languages).
export function short(card) {
  return `${card.rank}${SUIT_SYMBOL[card.suit] ?? ""}`;
}

export function cardFromCode(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const suit = code.slice(-1);
  return { code, rank, suit, red: suit === "H" || suit === "D" };
}

const list = (items, and) => (items.length <= 1 ? items.join("")
  : `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`);

export const STRINGS = {
  en: {
    lang_name: "English",
    title: "Hearts",
    doc_title: "Hearts — play in your browser",
    tagline: "Hearts against three computer players",
    seats: ["You", "West", "North", "East"],
    seat_you_lower: "you",
    suit: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" },
    suit_one: { S: "a spade", H: "a heart", D: "a diamond", C: "a club" },
    rank: { A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six",
      5: "five", 4: "four", 3: "three", 2: "two" },
    card_name: (rank, suit) => `${rank} of ${suit}`,
    direction: { left: "left", right: "right", across: "across", hold: "no pass" },
    preset: { standard: "Standard", pink_lady: "Pink lady", omnibus: "Omnibus", spot_hearts: "Spot hearts" },
    preset_blurb: {
      standard: "Hearts 1 point each, Q♠ 13. Lowest total when someone reaches 100 wins.",
      pink_lady: "Q♥ scores 13 as well as Q♠: 38 points a hand.",
      omnibus: "10♦ is worth −10 to whoever takes it.",
      spot_hearts: "Each heart scores its pips (J 11, Q 12, K 13, A 14); the match goes to 500.",
    },
    level: { easy: "Easy", normal: "Normal", hard: "Hard" },
    level_blurb: {
      easy: "Casual players: half their cards are chosen at random.",
      normal: "Steady players: they avoid points and get rid of dangerous cards.",
      hard: "Players who think ahead: they imagine the hidden hands and play them out.",
    },
    buttons: { new_game: "New game", replay: "Replay", guide: "Guide", language: "Language", settings: "Settings" },
    button_titles: { new_game: "Start a new match with a new deal", replay: "Restart this match from the same deal",
      guide: "How to play, the rules in detail, your data", settings: "How fast the computer players play" },
    settings: {
      title: "Settings",
      speed: "Speed of play",
      speed_note: "How long the computer players pause before each card, and how long a taken trick stays in view.",
      done: "Done",
    },
    speed: { slow: "Slow", normal: "Normal", fast: "Fast", instant: "Instant" },
    speed_blurb: {
      slow: "Plenty of time to follow every card.",
      normal: "A short pause after each card.",
      fast: "Only a moment between cards.",
      instant: "No pauses: the computer players' cards appear at once.",
    },
    table_level: (level) => `Computer players: ${level}`,
    loading: {
      checking: "Getting the game ready…",
      downloading: (pct) => `Downloading the game (once): ${pct}%`,
      python: "Starting Python…",
      engine: "Loading the rules (heartslib)…",
      failed: (why) => `The game could not start: ${why}`,
      offline_first: "You are offline and the game has not been downloaded on this device yet.",
    },
    scores: "Scores",
    hand_col: "Hand",
    total: "Total",
    to_target: (preset, target, level) => `${preset}, to ${target} · ${level} players`,
    seat_info: { tricks: "tricks", hand: "this hand", total: "total" },
    seat_aria: (name, cards, tricks, hand, total) =>
      `${name}: ${cards} cards, ${tricks} tricks, ${hand} points this hand, ${total} in total`,
    cards_left: (n) => `${n} cards`,
    table_aria: "Card table",
    trick_aria: "Cards on the table",
    hand_aria: "Your hand",
    your_turn: "Your turn",
    status: {
      hand: (n) => `Hand ${n}`,
      pass: (count, to, dir) => `Choose <b>${count}</b> cards to pass to <b>${to}</b> (${dir}).`,
      pass_everyone: "Everyone chooses before the exchange.",
      passing_wait: "Waiting for the others to choose their cards…",
      no_pass: "No passing this hand.",
      received: (cards, from) => `You received ${cards} from ${from}.`,
      lead: "<b>Your turn</b> to lead: play a highlighted card.",
      follow: "<b>Your turn</b>: play a highlighted card.",
      hearts_broken: "Hearts are broken.",
      playing: (name) => `${name} is playing…`,
      deciding: (name) => `${name} is deciding…`,
      decide: "Your decision:",
      scored: (n) => `Hand ${n} is over.`,
      over: (winners) => `Match over. ${winners} Start a new game or replay it.`,
    },
    pass_button: (n, count, to) => `Pass ${n}/${count} to ${to}`,
    card_state: { playable: "playable", not_playable: "not playable now", chosen: "chosen to pass",
      received: "just received" },
    new_badge: "new",
    winners: (names) => (names.length === 1
      ? (names[0] === "you" ? "You win the match!" : `${names[0]} wins the match.`)
      : `${capital(list(names, "and"))} share the win.`),
    result_title: (n, over) => `Hand ${n} scores${over ? " — match over" : ""}`,
    result_cols: ["Player", "Cards taken", "Hand", "Total"],
    moon: (who, kind) => (who === "you" ? `You shot the ${kind}!` : `${who} shot the ${kind}!`),
    shot_kind: { moon: "moon", sun: "sun" },
    next_hand: "Next hand",
    close: "Close",
    replay_deal: "Replay this deal",
    history: "Finished matches",
    history_none: "None yet.",
    history_skipped: (n) => `${n} unreadable ${n === 1 ? "entry was" : "entries were"} set aside ` +
      "(kept in this browser's storage).",
    history_line: (date, preset, level, scores, winners) =>
      `${date} · ${preset} (${level}): ${scores} — won by ${winners}`,
    history_note: "Kept in this browser only; clearing the browser’s data deletes them and the unfinished match.",
    notices: {
      resumed: (preset, hand, tricks) => `Welcome back: your unfinished ${preset} match was restored ` +
        `(hand ${hand}, ${tricks} ${tricks === 1 ? "trick" : "tricks"} played).`,
      new_game: (preset, target) => `New ${preset} match. Lowest total wins when someone reaches ${target}.`,
      offline: "Playing offline: the game is stored on this device.",
      moved_here: (preset, hand, tricks) => `Your ${preset} match moved to this tab (hand ${hand}, ` +
        `${tricks} ${tricks === 1 ? "trick" : "tricks"} played).`,
    },
    storage: {
      full: "This browser's storage is full, so the game is not being saved: play on, but reloading or closing " +
        "the page ends this match.",
      blocked: "This browser does not let the page store anything, so nothing is saved: play on, but reloading " +
        "or closing the page ends the match, and neither finished matches nor your settings are kept.",
    },
    other_tab: {
      open: { title: "This match is open in another tab",
        body: "Only one tab plays a match, so no move is lost or taken back. Keep playing in the other tab, or " +
          "move the match here: it goes on from the last move made there." },
      moved: { title: "The match moved to another tab",
        body: "You went on playing in another tab. Play here instead? The match goes on from the last move made " +
          "there." },
      here: "Play here",
    },
    story: {
      play: (who, card, leads) => `${who} ${leads ? "leads" : "plays"} ${card}.`,
      took: (who, you, points) => `${who} ${you ? "take" : "takes"} the trick (${points})`,
      points: (n) => (n === 0 ? "no points" : `${n > 0 ? "+" : "−"}${Math.abs(n)} ♥`),
      spoken: (n) => (n === 0 ? "no points" : `${n > 0 ? "" : "minus "}${Math.abs(n)} ${Math.abs(n) === 1 ? "point" : "points"}`),
      led: "led",
      stop: ".",
    },
    new_dialog: {
      title: "New game",
      variant: "Rules",
      level: "Computer players",
      warning: "A match is in progress. Starting a new one ends it: it is not kept and cannot be resumed.",
      replay_title: "Replay this match?",
      replay_warning: "The match in progress restarts from its first deal; the hands played so far are lost.",
      start: "Start the new game",
      replay: "Replay from the first deal",
      cancel: "Keep playing",
    },
    damaged: {
      title: "Your saved match could not be restored",
      body: "The match saved in this browser is damaged or comes from an incompatible version of the game, so " +
        "it cannot be resumed. A copy of it is kept in this browser, and you can download one.",
      body_not_kept: "The match saved in this browser is damaged or comes from an incompatible version of the game, " +
        "so it cannot be resumed. This browser's storage is full, so no copy of it could be kept aside: download " +
        "it if you want to keep it, because a new game replaces it.",
      download: "Download a copy",
      start: "Start a new game",
      detail: "Details",
      problems: {
        not_json: "The saved record cannot be read: it is not in the game's format.",
        not_a_save: "The saved record is not a match saved by this game, or one of its fields is wrong.",
        damaged: "The saved moves do not follow the rules of the match, so it cannot be replayed.",
        engine: "The game could not read the saved record.",
      },
    },
    refusal: {
      pass_full: (count) => `You pass ${count} cards: click a chosen card to put it back first.`,
      must_lead_opening_card: (r) => `You must lead ${cards(r)} to the first trick.`,
      must_lead_club: () => "You must lead a club to the first trick.",
      joker_cannot_lead: () => "A joker may not lead.",
      queen_not_broken: () => "You can't lead Q♠ before hearts are broken.",
      hearts_not_broken: () => "You can't lead a heart yet: no heart has been played, and you still hold a card " +
        "that is not a heart. (Q♠ does not unlock hearts.)",
      no_points_on_first_trick: () => "No points on the first trick: you still hold a card that is not a heart " +
        "or Q♠, so play that.",
      no_hearts_on_first_trick: () => "No hearts on the first trick while you hold another card.",
      must_follow_suit: (r) => `You must follow suit: ${r.led ? `you still have ${SUIT_EN[r.led]}` : "play the suit led"}.`,
      queen_forced: () => "You must play Q♠ now.",
      must_discard: (r) => `You must discard ${cards(r)} now.`,
      exposed_card_first_lead: (r) => `${cards(r) || "An exposed card"} was exposed: you may not play it the first ` +
        "time its suit is led while you hold another card of that suit.",
      must_undercut: () => "A penalty card is on the trick: play a card below the highest one if you can.",
      card_not_held: (r) => `You don't hold ${r.card ? short(r.card) : "that card"}.`,
      pass_wrong_size: (r) => `Choose exactly ${r.count} cards to pass.`,
      pass_forbidden_card: (r) => `${cards(r)} may not be passed in this game.`,
      pass_duplicate_card: () => "Choose each card only once.",
      pass_last_of_suit: (r) => `${cards(r) ? `${cards(r)}: ` : ""}You may not pass the last card of a suit: keep at least ` +
        "one card of each suit you hold.",
      no_shuffle_pass: () => "There is no shuffled pass this hand.",
      script_mismatch: () => "The shuffled pass cannot be dealt like that.",
      bad_argument: () => "The game was asked something it cannot do.",
      not_your_turn: (r, names) => `Wait: it is ${list((r.waiting ?? []).map((s) => names[s]), "and")}'s turn.`,
      not_playing: () => "Cards are not being played right now.",
      not_passing: () => "Cards are not being passed right now.",
      already_passed: () => "You have already passed your cards this hand.",
      no_decision: () => "There is nothing to decide right now.",
      choice_not_offered: () => "That choice is not on offer.",
      bid_not_allowed: () => "That bid is not allowed: pass, or bid more than the highest bid and no more than your chips.",
      round_over: () => "This hand is over.",
      round_in_match: () => "This hand belongs to the match: play it through the match.",
      match_over: () => "The match is over: start a new game or replay it.",
      no_such_seat: () => "There is no such seat at this table.",
      seat_required: () => "Say which seat acts.",
      not_an_action: () => "That is not a move in this game.",
      illegal_play: () => "That card is not allowed now.",
      bad_card: () => "That is not a card of this game.",
      unknown: () => "That is not allowed now.",
    },
    refused_play: (card, why) => `${short(card)}: ${why}`,
    guide_title: "The complete guide",
    guide_close: "Close the guide",
    rules_detail: "Rules in detail",
    rules_for: (preset) => `The rules of this match (${preset})`,
    footer: "The whole game runs in this page, on your device; no server sees your game.",
    versions: (lib, pyodide, level) => `heartslib ${lib} · Pyodide ${pyodide} · computer players: ${level}`,
  },

  th: {
    lang_name: "ไทย",
    title: "ฮาร์ตส์",
    doc_title: "ฮาร์ตส์ — เล่นในเบราว์เซอร์",
    tagline: "เกมฮาร์ตส์กับผู้เล่นคอมพิวเตอร์สามคน",
    seats: ["คุณ", "ตะวันตก", "เหนือ", "ตะวันออก"],
    seat_you_lower: "คุณ",
    suit: { S: "โพดำ", H: "โพแดง", D: "ข้าวหลามตัด", C: "ดอกจิก" },
    suit_one: { S: "โพดำ", H: "โพแดง", D: "ข้าวหลามตัด", C: "ดอกจิก" },
    rank: { A: "เอซ", K: "คิง", Q: "แหม่ม", J: "แจ็ค", 10: "สิบ", 9: "เก้า", 8: "แปด", 7: "เจ็ด", 6: "หก", 5: "ห้า",
      4: "สี่", 3: "สาม", 2: "สอง" },
    card_name: (rank, suit) => `${rank}${suit}`,
    direction: { left: "ซ้าย", right: "ขวา", across: "ตรงข้าม", hold: "ไม่ส่ง" },
    preset: { standard: "มาตรฐาน", pink_lady: "พิงก์เลดี้", omnibus: "ออมนิบัส", spot_hearts: "สปอตฮาร์ตส์" },
    preset_blurb: {
      standard: "โพแดงใบละ 1 แต้ม Q♠ 13 แต้ม เมื่อใครถึง 100 คะแนนรวมต่ำสุดชนะ",
      pink_lady: "Q♥ มีโทษ 13 แต้มเช่นเดียวกับ Q♠ รวม 38 แต้มต่อรอบ",
      omnibus: "10♦ มีค่า −10 แต้มสำหรับผู้ที่เก็บได้",
      spot_hearts: "โพแดงแต่ละใบคิดตามแต้มบนไพ่ (J 11, Q 12, K 13, A 14) และเล่นถึง 500",
    },
    level: { easy: "ง่าย", normal: "ปกติ", hard: "ยาก" },
    level_blurb: {
      easy: "ผู้เล่นสบาย ๆ: ครึ่งหนึ่งของไพ่ที่ลงเลือกแบบสุ่ม",
      normal: "ผู้เล่นที่รอบคอบ: เลี่ยงแต้มและรีบทิ้งไพ่อันตราย",
      hard: "ผู้เล่นที่คิดล่วงหน้า: นึกภาพไพ่ในมือที่มองไม่เห็นแล้วลองเล่นต่อจนจบ",
    },
    buttons: { new_game: "เกมใหม่", replay: "เล่นซ้ำ", guide: "คำแนะนำ", language: "ภาษา", settings: "ตั้งค่า" },
    button_titles: { new_game: "เริ่มการแข่งขันใหม่ด้วยการแจกใหม่", replay: "เริ่มการแข่งขันนี้ใหม่ด้วยการแจกเดิม",
      guide: "วิธีเล่น กติกาโดยละเอียด และข้อมูลของคุณ", settings: "คอมพิวเตอร์ลงไพ่เร็วแค่ไหน" },
    settings: {
      title: "ตั้งค่า",
      speed: "ความเร็วในการเล่น",
      speed_note: "คอมพิวเตอร์รอนานแค่ไหนก่อนลงไพ่แต่ละใบ และกองที่มีคนเก็บแล้วค้างบนโต๊ะให้ดูนานแค่ไหน",
      done: "ตกลง",
    },
    speed: { slow: "ช้า", normal: "ปกติ", fast: "เร็ว", instant: "ทันที" },
    speed_blurb: {
      slow: "มีเวลาดูไพ่ทุกใบอย่างสบาย",
      normal: "รอสั้น ๆ หลังไพ่แต่ละใบ",
      fast: "รอเพียงครู่เดียวระหว่างไพ่แต่ละใบ",
      instant: "ไม่รอเลย: ไพ่ของคอมพิวเตอร์ขึ้นทันที",
    },
    table_level: (level) => `คอมพิวเตอร์ระดับ${level}`,
    loading: {
      checking: "กำลังเตรียมเกม…",
      downloading: (pct) => `กำลังดาวน์โหลดเกม (ครั้งเดียว): ${pct}%`,
      python: "กำลังเริ่มเกม…",
      engine: "กำลังโหลดกติกา…",
      failed: () => "เริ่มเกมไม่ได้ ลองโหลดหน้านี้ใหม่อีกครั้ง",
      offline_first: "คุณออฟไลน์อยู่ และยังไม่เคยดาวน์โหลดเกมลงในเครื่องนี้",
    },
    scores: "คะแนน",
    hand_col: "รอบ",
    total: "รวม",
    to_target: (preset, target, level) => `${preset} เล่นถึง ${target} · คอมพิวเตอร์ระดับ${level}`,
    seat_info: { tricks: "กอง", hand: "รอบนี้", total: "รวม" },
    seat_aria: (name, cards, tricks, hand, total) =>
      `${name}: ไพ่ ${cards} ใบ เก็บ ${tricks} กอง รอบนี้ ${hand} แต้ม รวม ${total} แต้ม`,
    cards_left: (n) => `ไพ่ ${n} ใบ`,
    table_aria: "โต๊ะไพ่",
    trick_aria: "ไพ่บนโต๊ะ",
    hand_aria: "ไพ่ในมือคุณ",
    your_turn: "ตาคุณ",
    status: {
      hand: (n) => `รอบที่ ${n}`,
      pass: (count, to, dir) => `เลือกไพ่ <b>${count}</b> ใบเพื่อส่งให้<b>${to}</b> (${dir})`,
      pass_everyone: "ทุกคนเลือกเสร็จก่อนจึงแลกพร้อมกัน",
      passing_wait: "รอผู้เล่นอื่นเลือกไพ่…",
      no_pass: "รอบนี้ไม่ส่งไพ่",
      received: (cards, from) => `คุณได้รับ ${cards} จาก${from}`,
      lead: "<b>ตาคุณ</b>นำ: ลงไพ่ใบที่ไฮไลต์",
      follow: "<b>ตาคุณ</b>: ลงไพ่ใบที่ไฮไลต์",
      hearts_broken: "โพแดงถูกเล่นแล้ว",
      playing: (name) => `${name}กำลังลงไพ่…`,
      deciding: (name) => `${name}กำลังตัดสินใจ…`,
      decide: "การตัดสินใจของคุณ:",
      scored: (n) => `รอบที่ ${n} จบแล้ว`,
      over: (winners) => `การแข่งขันจบแล้ว ${winners} เริ่มเกมใหม่หรือเล่นซ้ำได้`,
    },
    pass_button: (n, count, to) => `ส่ง ${n}/${count} ใบให้${to}`,
    card_state: { playable: "ลงได้", not_playable: "ตอนนี้ลงไม่ได้", chosen: "เลือกส่งแล้ว", received: "เพิ่งได้รับ" },
    new_badge: "ใหม่",
    winners: (names) => (names.length === 1
      ? (names[0] === "คุณ" ? "คุณชนะการแข่งขัน!" : `${names[0]}ชนะการแข่งขัน`)
      : `${list(names, "และ")}ชนะร่วมกัน`),
    result_title: (n, over) => `คะแนนรอบที่ ${n}${over ? " — จบการแข่งขัน" : ""}`,
    result_cols: ["ผู้เล่น", "ไพ่ที่เก็บ", "รอบนี้", "รวม"],
    moon: (who, kind) => (who === "คุณ" ? `คุณยิง${kind}สำเร็จ!` : `${who}ยิง${kind}สำเร็จ!`),
    shot_kind: { moon: "พระจันทร์", sun: "พระอาทิตย์" },
    next_hand: "รอบต่อไป",
    close: "ปิด",
    replay_deal: "เล่นการแจกนี้ซ้ำ",
    history: "การแข่งขันที่จบแล้ว",
    history_none: "ยังไม่มี",
    history_skipped: (n) => `ข้ามรายการที่อ่านไม่ได้ ${n} รายการ (ยังเก็บไว้ในเบราว์เซอร์นี้)`,
    history_line: (date, preset, level, scores, winners) =>
      `${date} · ${preset} (${level}): ${scores} — ผู้ชนะ ${winners}`,
    history_note: "เก็บไว้ในเบราว์เซอร์นี้เท่านั้น การล้างข้อมูลเบราว์เซอร์จะลบผลเหล่านี้และเกมที่ยังไม่จบ",
    notices: {
      resumed: (preset, hand, tricks) => `ยินดีต้อนรับกลับ: กู้คืนการแข่งขัน${preset}ที่ยังไม่จบแล้ว ` +
        `(รอบที่ ${hand} เล่นไป ${tricks} กอง)`,
      new_game: (preset, target) => `การแข่งขัน${preset}ใหม่ เมื่อใครถึง ${target} คะแนนรวมต่ำสุดชนะ`,
      offline: "กำลังเล่นแบบออฟไลน์: เกมถูกเก็บไว้ในเครื่องนี้",
      moved_here: (preset, hand, tricks) => `ย้ายการแข่งขัน${preset}มาเล่นที่แท็บนี้แล้ว (รอบที่ ${hand} เล่นไป ${tricks} กอง)`,
    },
    storage: {
      full: "พื้นที่เก็บข้อมูลของเบราว์เซอร์นี้เต็ม เกมจึงบันทึกไม่ได้ เล่นต่อได้ " +
        "แต่ถ้าโหลดหน้าใหม่หรือปิดหน้านี้ การแข่งขันนี้จะหายไป",
      blocked: "เบราว์เซอร์นี้ไม่ให้หน้านี้เก็บข้อมูล จึงไม่มีอะไรถูกบันทึก เล่นต่อได้ " +
        "แต่ถ้าโหลดหน้าใหม่หรือปิดหน้านี้ การแข่งขันจะหายไป และจะไม่เก็บการแข่งขันที่จบแล้วกับการตั้งค่าไว้",
    },
    other_tab: {
      open: { title: "การแข่งขันนี้เปิดอยู่ในแท็บอื่น",
        body: "เล่นการแข่งขันได้ทีละแท็บ เพื่อไม่ให้การเดินหายหรือถูกย้อนกลับ เล่นต่อในแท็บนั้น " +
          "หรือย้ายการแข่งขันมาเล่นที่นี่ โดยเล่นต่อจากการเดินล่าสุดในแท็บนั้น" },
      moved: { title: "การแข่งขันย้ายไปเล่นในแท็บอื่นแล้ว",
        body: "คุณเล่นต่อในแท็บอื่นแล้ว จะกลับมาเล่นที่นี่ไหม การแข่งขันจะเล่นต่อจากการเดินล่าสุดในแท็บนั้น" },
      here: "เล่นที่นี่",
    },
    story: {
      play: (who, card, leads) => `${who}${leads ? "นำด้วย" : "ลง"}${card}`,
      took: (who, you, points) => `${who}เก็บกองนี้ (${points})`,
      points: (n) => (n === 0 ? "ไม่มีแต้ม" : `${n > 0 ? "+" : "−"}${Math.abs(n)} ♥`),
      spoken: (n) => (n === 0 ? "ไม่มีแต้ม" : `${n > 0 ? "" : "ลบ "}${Math.abs(n)} แต้ม`),
      led: "นำ",
      stop: "",
    },
    new_dialog: {
      title: "เกมใหม่",
      variant: "กติกา",
      level: "ผู้เล่นคอมพิวเตอร์",
      warning: "มีการแข่งขันที่ยังเล่นอยู่ การเริ่มเกมใหม่จะจบการแข่งขันนั้น และจะไม่ถูกเก็บไว้ให้เล่นต่อ",
      replay_title: "เล่นการแข่งขันนี้ซ้ำหรือไม่",
      replay_warning: "การแข่งขันที่เล่นอยู่จะเริ่มใหม่จากการแจกแรก รอบที่เล่นไปแล้วจะหายไป",
      start: "เริ่มเกมใหม่",
      replay: "เล่นซ้ำจากการแจกแรก",
      cancel: "เล่นต่อ",
    },
    damaged: {
      title: "กู้คืนการแข่งขันที่บันทึกไว้ไม่ได้",
      body: "การแข่งขันที่บันทึกไว้ในเบราว์เซอร์นี้เสียหายหรือมาจากเกมรุ่นที่เข้ากันไม่ได้ จึงเล่นต่อไม่ได้ " +
        "สำเนาของข้อมูลนั้นยังเก็บไว้ในเบราว์เซอร์นี้ และดาวน์โหลดเก็บไว้ได้",
      body_not_kept: "การแข่งขันที่บันทึกไว้ในเบราว์เซอร์นี้เสียหายหรือมาจากเกมรุ่นที่เข้ากันไม่ได้ จึงเล่นต่อไม่ได้ " +
        "พื้นที่เก็บข้อมูลของเบราว์เซอร์นี้เต็ม จึงเก็บสำเนาแยกไว้ไม่ได้ ถ้าอยากเก็บไว้ให้ดาวน์โหลด " +
        "เพราะเกมใหม่จะบันทึกทับ",
      download: "ดาวน์โหลดสำเนา",
      start: "เริ่มเกมใหม่",
      detail: "รายละเอียด",
      problems: {
        not_json: "อ่านข้อมูลที่บันทึกไว้ไม่ได้: ไม่ใช่รูปแบบของเกมนี้",
        not_a_save: "ข้อมูลที่บันทึกไว้ไม่ใช่การแข่งขันของเกมนี้ หรือมีบางส่วนผิดรูปแบบ",
        damaged: "การเดินที่บันทึกไว้ไม่เป็นไปตามกติกาของการแข่งขัน จึงเล่นต่อไม่ได้",
        engine: "เกมอ่านข้อมูลที่บันทึกไว้ไม่ได้",
      },
    },
    refusal: {
      pass_full: (count) => `คุณส่งได้ ${count} ใบ: คลิกใบที่เลือกไว้เพื่อเอาคืนก่อน`,
      must_lead_opening_card: (r) => `กองแรกคุณต้องนำด้วย ${cards(r)}`,
      must_lead_club: () => "กองแรกคุณต้องนำด้วยดอกจิก",
      joker_cannot_lead: () => "ห้ามนำด้วยโจ๊กเกอร์",
      queen_not_broken: () => "ยังนำ Q♠ ไม่ได้จนกว่าจะมีโพแดงถูกเล่น",
      hearts_not_broken: () => "ยังนำโพแดงไม่ได้: ยังไม่มีโพแดงถูกเล่นจริง และคุณยังมีไพ่ที่ไม่ใช่โพแดง " +
        "(Q♠ ไม่ปลดข้อห้าม)",
      no_points_on_first_trick: () => "กองแรกห้ามลงไพ่คะแนน: คุณยังมีไพ่ที่ไม่ใช่โพแดงหรือ Q♠ ให้ลงใบนั้น",
      no_hearts_on_first_trick: () => "กองแรกห้ามลงโพแดงขณะที่ยังมีไพ่อื่น",
      must_follow_suit: (r) => `คุณต้องลงตามดอก: ${r.led ? `คุณยังมี${SUIT_TH[r.led]}` : "ลงดอกที่ถูกนำ"}`,
      queen_forced: () => "คุณต้องลง Q♠ ตอนนี้",
      must_discard: (r) => `คุณต้องทิ้ง ${cards(r)} ตอนนี้`,
      exposed_card_first_lead: (r) => `${cards(r) || "ไพ่ที่เปิดแล้ว"} ถูกเปิดไว้: ห้ามลงใบนี้ในครั้งแรกที่มีการนำดอกนั้น ` +
        "ขณะที่คุณยังมีไพ่ดอกเดียวกันใบอื่น",
      must_undercut: () => "มีไพ่คะแนนอยู่ในกอง: ถ้าลงไพ่ที่ต่ำกว่าใบสูงสุดได้ ต้องลงใบนั้น",
      card_not_held: (r) => `คุณไม่มี ${r.card ? short(r.card) : "ไพ่ใบนั้น"}`,
      pass_wrong_size: (r) => `เลือกไพ่ส่งให้ครบ ${r.count} ใบพอดี`,
      pass_forbidden_card: (r) => `เกมนี้ห้ามส่ง ${cards(r)}`,
      pass_duplicate_card: () => "เลือกไพ่แต่ละใบได้เพียงครั้งเดียว",
      pass_last_of_suit: (r) => `${cards(r) ? `${cards(r)}: ` : ""}ห้ามส่งไพ่ใบสุดท้ายของดอก: ` +
        "ต้องเหลือไพ่ทุกดอกที่มีในมือไว้อย่างน้อยดอกละหนึ่งใบ",
      no_shuffle_pass: () => "รอบนี้ไม่มีการส่งไพ่แบบสับรวม",
      script_mismatch: () => "แจกไพ่ที่สับรวมแบบนั้นไม่ได้",
      bad_argument: () => "เกมได้รับคำสั่งที่ทำไม่ได้",
      not_your_turn: (r, names) => `รอก่อน: ตอนนี้เป็นตาของ${list((r.waiting ?? []).map((s) => names[s]), "และ")}`,
      not_playing: () => "ตอนนี้ยังไม่ใช่ช่วงลงไพ่",
      not_passing: () => "ตอนนี้ไม่ใช่ช่วงส่งไพ่",
      already_passed: () => "คุณส่งไพ่ของรอบนี้ไปแล้ว",
      no_decision: () => "ตอนนี้ไม่มีอะไรต้องตัดสินใจ",
      choice_not_offered: () => "ไม่มีตัวเลือกนี้",
      bid_not_allowed: () => "ประมูลแบบนี้ไม่ได้: ผ่าน หรือเสนอมากกว่าราคาสูงสุดแต่ไม่เกินชิปที่คุณมี",
      round_over: () => "รอบนี้จบแล้ว",
      round_in_match: () => "รอบนี้เป็นส่วนหนึ่งของการแข่งขัน: ต้องเล่นผ่านการแข่งขันเท่านั้น",
      match_over: () => "การแข่งขันจบแล้ว: เริ่มเกมใหม่หรือเล่นซ้ำได้",
      no_such_seat: () => "ไม่มีที่นั่งนี้ที่โต๊ะ",
      seat_required: () => "ต้องระบุว่าที่นั่งใดเป็นผู้เล่น",
      not_an_action: () => "นี่ไม่ใช่การเดินในเกมนี้",
      illegal_play: () => "ตอนนี้ลงไพ่ใบนี้ไม่ได้",
      bad_card: () => "นี่ไม่ใช่ไพ่ของเกมนี้",
      unknown: () => "ตอนนี้ทำแบบนี้ไม่ได้",
    },
    refused_play: (card, why) => `${short(card)}: ${why}`,
    guide_title: "คำแนะนำฉบับสมบูรณ์",
    guide_close: "ปิดคำแนะนำ",
    rules_detail: "กติกาโดยละเอียด",
    rules_for: (preset) => `กติกาของการแข่งขันนี้ (รูปแบบกติกา${preset})`,
    footer: "เกมทั้งเกมทำงานอยู่ในหน้านี้บนเครื่องของคุณ ไม่มีเซิร์ฟเวอร์ใดเห็นเกมของคุณ",
    versions: (lib, pyodide, level) => `รุ่น ${lib} · ผู้เล่นคอมพิวเตอร์: ${level}`,
  },
};

const SUIT_EN = STRINGS.en.suit;
const SUIT_TH = STRINGS.th.suit;

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function cards(refusal) {
  return (refusal.cards ?? []).map(short).join(" ") || (refusal.card ? short(refusal.card) : "");
}

// The spoken name of a card: "queen of spades", "แหม่มโพดำ".
export function cardName(lang, card) {
  const s = STRINGS[lang];
  return s.card_name(s.rank[card.rank] ?? card.rank, s.suit[card.suit] ?? "");
}

// A refusal from game.py ({code, card, cards, led, waiting, count, detail}) in the player's words.
export function refusalText(lang, refusal, names) {
  const words = STRINGS[lang].refusal;
  const fn = words[refusal.code] ?? words.unknown;
  return fn(refusal, names);
}

// --------------------------------------------------------------------------- the guide

// The complete guide, after seed 002's "คำแนะนำฉบับสมบูรณ์": sections of [heading, paragraphs].
// HTML is allowed in paragraphs (it is our own text, never the player's).
export const GUIDE = {
  th: [
    ["เป้าหมายของเกม", [
      "ฮาร์ตส์เป็นเกมเก็บกองไพ่สำหรับผู้เล่นสี่คน ซึ่งโดยทั่วไปควรหลีกเลี่ยงการได้คะแนน คุณต้องเลือกว่าจะรักษาสิทธิ์นำเมื่อใด " +
        "ยอมเสียกองเมื่อใด และเปลี่ยนความเสี่ยงในมือด้วยการส่งไพ่สามใบอย่างไร",
      "ผู้ชนะคือผู้ที่มีคะแนนรวมน้อยที่สุดเมื่อใครคนหนึ่งถึง 100 คะแนน โพแดงแต่ละใบมีโทษ 1 แต้ม และ Q♠ มีโทษ 13 แต้ม",
    ]],
    ["การแจกและการส่งไพ่", [
      "ใช้ไพ่มาตรฐาน 52 ใบ แจกคนละสิบสามใบ รอบแรกส่งสามใบไปทางซ้าย รอบที่สองไปทางขวา รอบที่สามให้คนตรงข้าม " +
        "และรอบที่สี่ไม่ส่ง จากนั้นวนซ้ำ",
      "ทุกคนต้องเลือกเสร็จก่อนจึงแลกพร้อมกัน ไม่มีใครเห็นไพ่ที่จะได้รับก่อนเลือกไพ่ของตัวเอง ไพ่ที่คุณได้รับจะมีป้าย “ใหม่” " +
        "จนกว่าจะเริ่มลงกองแรก",
      "หลังแลกแล้ว คนที่มีสองดอกจิก (2♣) ต้องใช้ไพ่ใบนั้นนำกองแรก",
    ]],
    ["การลงไพ่", [
      "ถ้ามีดอกที่ถูกนำ คุณต้องลงดอกนั้น ถ้าไม่มี จะลงไพ่ใบใดก็ได้ (ตามข้อห้ามด้านล่าง) ไพ่สูงสุดของดอกนำชนะ โดยเอซสูงสุด " +
        "ไม่มีไพ่ทรัมป์ ผู้ชนะกองจะเป็นผู้นำกองต่อไป",
      "<b>กองแรก:</b> หากไม่มีดอกจิกในกองแรก ห้ามทิ้งโพแดงหรือแหม่มโพดำตราบใดที่ยังมีไพ่ไม่คิดคะแนน " +
        "แต่ถ้ามีแต่ไพ่คะแนนจะได้รับข้อยกเว้น",
      "<b>การนำโพแดง:</b> ในเวอร์ชันนี้ต้องมีโพแดงถูกเล่นจริงจึงนำโพแดงได้ แหม่มโพดำไม่ปลดข้อห้าม " +
        "ก่อนหน้านั้นนำโพแดงได้เฉพาะเมื่อทั้งมือเป็นโพแดง",
      "ไพ่ที่ลงได้จะถูกไฮไลต์ ถ้าคลิกไพ่ที่ลงไม่ได้ เกมจะบอกเหตุผลด้วยกติกาที่เกี่ยวข้อง และไม่มีอะไรเปลี่ยน",
    ]],
    ["คะแนนและการยิงพระจันทร์", [
      "โพแดงแต่ละใบคิดหนึ่งคะแนน แหม่มโพดำคิดสิบสาม หากเก็บครบยี่สิบหกคะแนนในรอบเดียว คุณจะได้ศูนย์และคู่แข่งแต่ละคน" +
        "ได้ยี่สิบหกแทน (“ยิงพระจันทร์”) ต้องเล่นจบรอบก่อนตรวจผล",
      "ระหว่างรอบ แต่ละที่นั่งแสดงแต้มที่เก็บได้ในรอบนี้และคะแนนรวม เมื่อจบรอบจะมีตารางแสดงไพ่คะแนนที่แต่ละคนเก็บ",
    ]],
    ["การจบการแข่งขัน", [
      "เมื่อใครมีคะแนนสะสมถึง 100 การแข่งขันจบเมื่อจบรอบนั้น และคะแนนรวมต่ำสุดชนะ ถ้าต่ำสุดเท่ากันจะชนะร่วมกัน",
    ]],
    ["คำแนะนำในการส่งไพ่และการเล่น", [
      "ก่อนส่งไพ่ ลองดูว่าจะทำให้ดอกใดหมดมือได้บ้าง และไพ่สูงใบใดอาจบังคับให้คุณเก็บแหม่ม " +
        "จำไพ่ที่ออกไปแล้วและผู้เล่นที่ตามบางดอกไม่ได้",
      "<b>ควรส่งแหม่มโพดำทิ้งเสมอไหม?</b> ไม่เสมอไป ถ้ามีโพดำต่ำหลายใบ คุณอาจทิ้งแหม่มอย่างปลอดภัยภายหลังได้ " +
        "การมีโพดำน้อยแต่มีแหม่ม คิง หรือเอซอาจเสี่ยงกว่า จึงควรประเมินไพ่ทั้งมือ",
      "<b>ทำไมนำโพแดงไม่ได้ทั้งที่แหม่มออกไปแล้ว?</b> เวอร์ชันนี้ปลดข้อห้ามเมื่อมีโพแดงถูกเล่นจริงเท่านั้น " +
        "แหม่มเพิ่มสิบสามคะแนนแต่ไม่ปลดข้อห้าม หากไพ่ที่เหลือทั้งหมดเป็นโพแดง คุณยังนำโพแดงได้แม้ยังไม่ปลดล็อก",
    ]],
    ["ผู้เล่นคอมพิวเตอร์", [
      "คอมพิวเตอร์ใช้เฉพาะไพ่ของตัวเองและการเล่นที่เปิดเผย ไม่ดูมือคนอื่นหรือค่าตั้งต้นการสับไพ่ " +
        "นี่คือคู่ซ้อมในเครื่อง ไม่ใช่คำรับรองการเล่นระดับผู้เชี่ยวชาญหรือดีที่สุด",
      "ความเร็วเลือกได้ที่<b>ตั้งค่า</b> (⚙ บนโทรศัพท์): ช้า ปกติ เร็ว หรือทันที คือคอมพิวเตอร์รอนานแค่ไหนก่อนลงไพ่แต่ละใบ " +
        "และกองที่มีคนเก็บแล้วค้างบนโต๊ะให้ดูนานแค่ไหน มีผลตั้งแต่ไพ่ใบถัดไปและเบราว์เซอร์จะจำไว้",
      "เลือกระดับได้เมื่อเริ่มเกมใหม่:",
    ]],
    ["ข้อมูลของคุณ", [
      "เกมที่ยังไม่จบจะบันทึกไว้ในเบราว์เซอร์นี้เท่านั้น เบราว์เซอร์อาจเก็บการแข่งขันในเครื่องและผลสุดท้ายไว้ " +
        "การล้างข้อมูลเบราว์เซอร์ลบบันทึกเหล่านี้",
      "เล่นซ้ำเริ่มด้วยการแจกเดิม ส่วนเกมใหม่เปลี่ยนการแจก",
      "ไม่มีการย้อนหลังจากเปิดเผยไพ่คู่แข่ง ไม่มีคู่แข่งสดหรือการเดิมพัน",
      "หลังโหลดครั้งแรก เกมถูกเก็บไว้ในเครื่องและเล่นแบบออฟไลน์ได้",
      "ถ้าพื้นที่เก็บข้อมูลของเบราว์เซอร์เต็มหรือเบราว์เซอร์ไม่ให้เก็บข้อมูล เกมจะบอกไว้และเล่นต่อได้โดยไม่บันทึก",
    ]],
    ["การใช้แป้นพิมพ์", [
      "กด Tab เพื่อไปยังไพ่ในมือ ใช้ลูกศรซ้าย/ขวาเลือกไพ่ แล้วกด Enter หรือเว้นวรรคเพื่อลงไพ่หรือเลือกไพ่ที่จะส่ง " +
        "กด Tab อีกครั้งเพื่อไปยังปุ่มส่ง",
    ]],
  ],
  en: [
    ["The object of the game", [
      "Hearts is a trick-taking game for four players in which you generally want to avoid points. You choose " +
        "when to keep the lead, when to give a trick away, and how to change the risk in your hand by passing " +
        "three cards.",
      "The winner is the player with the lowest total when someone reaches 100 points. Each heart costs 1 " +
        "point and Q♠ costs 13.",
    ]],
    ["The deal and the pass", [
      "A standard 52-card deck, thirteen cards each. On the first hand you pass three cards to the left, on the " +
        "second to the right, on the third across the table, and on the fourth nobody passes; then the cycle " +
        "repeats.",
      "Everyone chooses before the cards are exchanged all at once: nobody sees what they receive before " +
        "choosing. The cards you received are marked “new” until the first trick starts.",
      "After the exchange, the holder of the two of clubs (2♣) must lead it to the first trick.",
    ]],
    ["Playing the cards", [
      "If you have a card of the suit led, you must play one. If not, you may play any card (within the rules " +
        "below). The highest card of the suit led wins the trick – aces are high, there are no trumps – and the " +
        "winner leads the next trick.",
      "<b>The first trick:</b> if you have no club on the first trick, you may not discard a heart or Q♠ while " +
        "you hold any card that scores nothing. A hand of nothing but point cards is exempt.",
      "<b>Leading hearts:</b> in this version a heart must actually have been played before you may lead one; " +
        "Q♠ does not unlock them. Until then you may lead a heart only when your whole hand is hearts.",
      "The cards you may play are highlighted. Click one you may not play and the game tells you which rule " +
        "stops it; nothing changes.",
    ]],
    ["Scoring and shooting the moon", [
      "Each heart scores one point and Q♠ thirteen. If you take all twenty-six in one hand you score zero and " +
        "every opponent scores twenty-six instead (“shooting the moon”). The hand is always played to the end " +
        "before this is judged.",
      "During a hand each seat shows the points it has taken this hand and its total; at the end of the hand a " +
        "table shows the point cards each player took.",
    ]],
    ["The end of the match", [
      "When someone's total reaches 100, the match ends with that hand and the lowest total wins. Players tied " +
        "for the lowest total share the win.",
    ]],
    ["Advice on passing and play", [
      "Before you pass, look at which suit you could empty from your hand, and which high cards might force you " +
        "to take the queen. Remember the cards already played and which players cannot follow a suit.",
      "<b>Should you always pass Q♠?</b> Not always. With several low spades you can often get rid of the queen " +
        "safely later; few spades with the queen, king or ace can be riskier. Judge the whole hand.",
      "<b>Why can't I lead a heart when the queen has been played?</b> This version unlocks hearts only when a " +
        "heart has actually been played. The queen adds thirteen points but does not unlock them. If every card " +
        "you have left is a heart, you may lead one even so.",
    ]],
    ["The computer players", [
      "The computer players use only their own cards and the public play; they never look at other hands or " +
        "the shuffle's seed. They are practice partners on your device, not a claim of expert or best play.",
      "Their speed is under <b>Settings</b> (⚙ on phones): Slow, Normal, Fast or Instant, how long each pauses " +
        "before its card and how long a taken trick stays in view. It applies from the next card and is remembered.",
      "Choose their level when you start a new game:",
    ]],
    ["Your data", [
      "The unfinished match is saved in this browser only, and so are the results of finished matches. " +
        "Clearing the browser's data deletes them.",
      "Replay starts again from the same deal; a new game changes the deal.",
      "There is no undo once the opponents' cards are revealed. There are no live opponents and no betting.",
      "After the first load the game is stored on your device and plays offline.",
      "When the browser's storage is full, or the browser does not let the page store anything, the game says so " +
        "and plays on without saving.",
    ]],
    ["Playing with the keyboard", [
      "Press Tab to reach your hand, the left and right arrows to move between cards, and Enter or Space to " +
        "play a card or choose it for the pass. Tab again reaches the pass button.",
    ]],
  ],
};

// The guide's section on the computer players, after which the page lists the levels on offer.
export const GUIDE_LEVELS_SECTION = GUIDE.en.findIndex(([heading]) => heading === "The computer players");

// "Rules in detail" for one variant, worded from game.py's rules_facts (never Variant.describe()'s text).
export function rulesDetail(lang, facts) {
  const th = lang === "th";
  const dir = STRINGS[lang].direction;
  const cycle = facts.schedule.map((d) => dir[d]).join(th ? " → " : ", ");
  const values = facts.values.map(([code, v]) => `${short(cardFromCode(code))} ${v > 0 ? "+" : "−"}${Math.abs(v)}`)
    .join(", ");
  const bonus = facts.values.filter(([, v]) => v < 0).map(([code]) => short(cardFromCode(code))).join(" ");
  const hearts = facts.hearts === "spot"
    ? (th ? "โพแดงแต่ละใบคิดตามแต้มบนไพ่: 2–10 ตามตัวเลข J 11, Q 12, K 13, A 14"
      : "each heart scores its pips: 2–10 their number, J 11, Q 12, K 13, A 14")
    : (th ? "โพแดงแต่ละใบ 1 แต้ม" : "each heart scores 1 point");
  const out = [];
  out.push(th
    ? `ผู้เล่น 4 คน เล่นตามเข็มนาฬิกา ไพ่ 52 ใบ แจกคนละ 13 ใบ`
    : "4 players, play goes clockwise; a 52-card deck, 13 cards each.");
  out.push(th
    ? `ส่งไพ่ ${facts.pass_count} ใบ วนตามลำดับ: ${cycle} ทุกคนเลือกก่อนแลกพร้อมกัน`
    : `Pass ${facts.pass_count} cards, in this cycle over the hands: ${cycle}. Everyone chooses before the exchange.`);
  out.push(th
    ? "ผู้ที่มี 2♣ ต้องนำด้วย 2♣ ต้องลงตามดอกเมื่อมี ไพ่สูงสุดของดอกนำชนะและผู้ชนะนำกองต่อไป"
    : "The holder of 2♣ leads it. Follow suit when you can; the highest card of the suit led wins and its winner " +
      "leads next.");
  out.push(th
    ? "นำโพแดงได้เมื่อมีโพแดงถูกเล่นแล้ว (Q♠ ไม่ปลดข้อห้าม) หรือเมื่อในมือเหลือแต่โพแดง"
    : "Hearts may be led once a heart has been played (Q♠ does not unlock them), or by a hand of only hearts.");
  out.push(th
    ? "กองแรกห้ามลงไพ่คะแนน เว้นแต่ไม่มีไพ่อื่นให้ลง"
    : "No point card may be played to the first trick unless you have nothing else.");
  out.push(th
    ? `คะแนน: ${hearts} และ ${values} รวม ${facts.penalty_total} แต้มโทษต่อรอบ`
    : `Scoring: ${hearts}; ${values}. ${facts.penalty_total} penalty points in a hand.`);
  const moon = facts.moon;
  if (moon.kind === "take_all") {
    out.push(th
      ? `ยิงพระจันทร์: ผู้ที่เก็บไพ่คิดคะแนนครบทุกใบ${bonus ? ` รวม ${bonus}` : ""} ได้ −${moon.points} คนอื่นได้ 0 ` +
        "ตรวจเมื่อจบรอบ"
      : `Shooting the moon: taking every counting card${bonus ? `, ${bonus} included,` : ""} scores −${moon.points} ` +
        "for you and 0 for everyone else; judged when the hand is complete.");
  } else {
    out.push(th
      ? `ยิงพระจันทร์: ผู้ที่เก็บไพ่โทษครบทุกใบได้ 0 คู่แข่งแต่ละคนได้ ${moon.points} ตรวจเมื่อจบรอบ`
      : `Shooting the moon: taking every penalty card scores 0 for you and ${moon.points} for each opponent; ` +
        "judged when the hand is complete.");
  }
  out.push(th
    ? `จบเมื่อมีผู้เล่นถึง ${facts.target} คะแนนเมื่อจบรอบ คะแนนรวมต่ำสุดชนะ เสมอกันชนะร่วมกัน`
    : `The match ends when someone reaches ${facts.target} at the end of a hand; the lowest total wins, ties share ` +
      "the win.");
  return out;
}
