// The one catalogue of every word the browser client shows, in English and Russian.
// Pages call t("key", {param}) and tileName(kind, edition); the game log is rendered
// from the event data (eventText) so that Russian needs nothing from the server.

export const LANGS = ["en", "ru"];

const EN = {
  "app.title": "Ra",
  "app.tagline": "Knizia's auction game of Egyptian history, at one table online",
  "nav.lobby": "Lobby",
  "nav.site": "Site",
  "nav.rules": "Rules",
  "nav.lang": "Language",
  "nav.help": "Help",
  "lang.en": "English",
  "lang.ru": "Русский",

  // Lobby
  "lobby.new": "New game",
  "lobby.seats": "Seats",
  "lobby.seat": "Seat {n}",
  "lobby.seatShort": "#{n}",
  "lobby.you": "You",
  "lobby.human": "Human",
  "lobby.bot": "Bot",
  "lobby.level": "Level",
  "lobby.level.easy": "easy",
  "lobby.level.medium": "medium",
  "lobby.level.hard": "hard",
  "lobby.level.expert": "expert",
  "lobby.addSeat": "Add seat",
  "lobby.removeSeat": "Remove",
  "lobby.variant": "Variant",
  "lobby.variant.standard": "Standard",
  "lobby.variant.long": "Long two-player game",
  "lobby.suns": "Suns per player",
  "lobby.disasters": "Disasters taken with God tiles",
  "lobby.disasters.immediate": "Resolved at once (2016, 2023 rules)",
  "lobby.disasters.2008": "Resolved after all the turn's takes (2008 rules)",
  "lobby.disasters.short": "2008 disaster timing",
  "lobby.hidden": "Hidden scores",
  "lobby.hints": "Hints",
  "lobby.hintsHelp": "players may ask for each move's chance to win (off by default when several people play)",
  "lobby.hiddenHelp": "As in every rulebook, score tablets lie face down: each player sees only their own score until the end (R9.1). Untick for open scores.",
  "lobby.edition": "Tile names",
  "lobby.edition.original": "Original (1999)",
  "lobby.edition.2016": "2016 edition",
  "lobby.edition.2023": "2023 edition",
  "lobby.pace": "Bot pace",
  "lobby.pace.0": "instant",
  "lobby.pace.0.5": "brisk (½ s)",
  "lobby.pace.1": "normal (1 s)",
  "lobby.pace.2": "relaxed (2 s)",
  "lobby.name": "Your name",
  "lobby.namePh": "e.g. Ann",
  "lobby.create": "Create game",
  "lobby.createWatch": "Create and watch",
  "lobby.botsOnly": "Every seat is a bot: you will watch them play.",
  "lobby.created": "Game created. Send this link to your friends:",
  "lobby.share": "Invite link",
  "lobby.copy": "Copy",
  "lobby.copied": "Copied!",
  "lobby.goTable": "Go to the table",
  "lobby.yours": "Your games",
  "lobby.open": "Open games — join one",
  "lobby.running": "Games being played",
  "lobby.finished": "Finished games",
  "lobby.none": "None right now.",
  "lobby.showMore": "Show {n} more",
  "lobby.join": "Join",
  "lobby.rejoin": "Rejoin",
  "lobby.spectate": "Watch",
  "lobby.replay": "Replay",
  "lobby.forget": "Forget",
  "lobby.refresh": "Refresh",
  "lobby.players": "{n} players",
  "lobby.freeSeats": "{n} free",
  "lobby.decisions": "{n} decisions",
  "lobby.needName": "Please type your name first.",
  "lobby.tooManySeats": "2 to 5 players.",
  "lobby.needHuman": "At least one seat must be human to play; all-bot games can be watched.",
  "lobby.status.open": "waiting for players",
  "lobby.status.running": "running",
  "lobby.status.finished": "finished",
  "lobby.seatAs": "seat {n}",
  "lobby.winner": "won by {name}",
  "lobby.importRecord": "Watch a saved game",
  "lobby.importFile": "Open a record file…",
  "lobby.import": "Open replay",

  // Table
  "table.loading": "Connecting to the table…",
  "table.epoch": "Epoch {n} of 3",
  "table.raTrack": "Ra track",
  "table.raTrackCount": "{n} of {m} Ra tiles",
  "table.auctionTrack": "Auction track",
  "table.auctionCount": "{n} of 8 tiles",
  "table.centerSun": "Centre sun",
  "table.bag": "Bag: {n} tiles",
  "table.empty": "empty",
  "table.actions": "Your actions",
  "table.draw": "Draw a tile",
  "table.ra": "Invoke Ra",
  "table.pass": "Pass",
  "table.done": "Done",
  "table.undo": "Undo",
  "table.hint": "Hint: win chances",
  "table.hintThinking": "Weighing the options…",
  "table.hintBest": "Best: {action} ({chance}% to win)",
  "table.hintWeaker": "(weaker advice: this server has no native core)",
  "table.bid": "Bid {n}",
  "table.bidTitle": "Bid with a sun:",
  "table.god": "Take {tile} with a God",
  "table.godHint": "Tap a tile marked ☥ on the auction track, or a button below, to take it with a God tile.",
  "table.discard": "Lose {tile}",
  "table.discardHint": "Tap one of your tiles marked ✕, or a button below, to lose it.",
  "table.waiting": "Waiting for {name}…",
  "table.spectating": "You are watching this game.",
  "table.youLose": "You lose {tiles}.",
  "table.you": "you",
  "table.bot": "bot",
  "table.online": "online",
  "table.offline": "offline",
  "table.free": "seat free",
  "table.score": "Score",
  "table.scoreHidden": "Score hidden (tablets face down)",
  "table.toMove": "to move",
  "table.suns": "Suns",
  "table.faceUp": "face up",
  "table.faceDown": "face down",
  "table.noSuns": "no suns",
  "table.group.gods": "Gods",
  "table.group.pharaohs": "Pharaohs",
  "table.group.river": "Nile and Flood",
  "table.group.civ": "Civilizations and Gold",
  "table.group.monuments": "Monuments",
  "table.keepMark": "kept after the epoch",
  "legend.kept": "on a tile: kept after the epoch (Pharaohs, Nile, monuments); the others are discarded.",
  "legend.tiles": "Every tile explained",
  "table.log": "Game log",
  "table.pageTitle": "Game table",
  "table.logJump": "Game log ↓",
  "table.scores": "Scoring",
  "table.showScores": "Scoring tables",
  "table.close": "Close",
  "table.sound": "Sound",
  "table.soundOn": "Sound on",
  "table.soundOff": "Sound off",
  "table.replay": "Replay",
  "table.record": "Download record",
  "table.again": "Play again",
  "table.rematchReady": "A rematch is ready.",
  "table.goRematch": "Go to the rematch",
  "table.shareLink": "Invite link",
  "table.waitingRoom": "Waiting for players",
  "table.waitingHelp": "The game starts when every human seat is taken. Share the link:",
  "table.joinAs": "Take a seat",
  "table.leave": "Leave seat",
  "table.yourTurnTitle": "▶ Your turn — Ra",
  "table.seatLinkSaved": "Your seat is saved in this browser.",
  "table.seatLink": "Seat link (rejoin from another device)",
  "table.notFound": "No such game.",
  "table.lastMove": "Last: {text}",
  "table.tilesLost": "lost",
  "table.viewAs": "View as",

  // Status lines: whose turn and why
  "st.yourAction": "Your turn: draw a tile or invoke Ra.",
  "st.yourActionGod": "Your turn: draw a tile, invoke Ra, or take a tile with a God.",
  "st.yourActionRaOnly": "Your turn: the auction track is full — invoke Ra.",
  "st.action": "{name} is thinking: draw or invoke Ra.",
  "st.yourBidMust": "Your bid — you invoked Ra and everyone passed: you must bid.",
  "st.yourBid": "Your bid — {why}. {high}",
  "st.bid": "{name} is bidding — {why}. {high}",
  "st.why.drawn": "{ra} drew a Ra tile",
  "st.why.voluntary": "{ra} invoked Ra",
  "st.why.forced": "{ra} invoked Ra on a full track: if nobody bids, the tiles leave the game",
  "st.whyYou.drawn": "you drew a Ra tile",
  "st.whyYou.voluntary": "you invoked Ra",
  "st.whyYou.forced": "you invoked Ra on a full track: if nobody bids, the tiles leave the game",
  "st.bidLast.drawn": "{name} drew a Ra tile and bids last. {high}",
  "st.bidLast.voluntary": "{name} invoked Ra and bids last. {high}",
  "st.bidLast.forced": "{name} invoked Ra on a full track and bids last: if nobody bids, the tiles leave the game. {high}",
  "st.high": "Highest bid: {sun} by {name}.",
  "st.noHigh": "No bid yet.",
  "st.yourGod": "Take another tile with a God tile, or Done.",
  "st.god": "{name} is using God tiles.",
  "st.godPending": "Then: {disasters} (2008 disaster timing).",
  "st.yourDiscard": "{disaster}: choose the tiles to lose ({n} more).",
  "st.discard": "{name} chooses tiles to lose to {disaster}.",
  "st.over": "The game is over.",
  "st.raPlayer": "Ra player",
  "st.auction": "Auction",

  // Connection
  "conn.lost": "Connection lost — reconnecting in {s} s…",
  "conn.connecting": "Reconnecting…",
  "conn.lostNow": "Connection lost — reconnecting…",
  "table.watchLink": "Link to watch",
  "nf.title": "Page not found",
  "nf.text": "There is nothing at this address: the link may be mistyped, or the game it pointed to no longer exists.",
  "nf.lobby": "Go to the lobby",
  "nf.rules": "Read the rules",
  "conn.now": "Reconnect now",
  "conn.notSent": "Not sent: the connection is down. Reconnecting…",
  "table.thinking": "thinking…",
  "conn.restored": "Connection restored.",
  "conn.shutdown": "The server is restarting — reconnecting…",
  "err.stale": "The table moved on; here is the new position.",
  "err.illegal": "That move is not allowed now.",
  "err.not_your_turn": "It is not your turn.",
  "err.spectator": "Spectators cannot act.",
  "err.no_hints": "Hints are off at this table.",
  "err.bad_token": "Your seat token was not accepted; you are watching.",
  "err.seat_lost": "You no longer hold this seat (you left it, or it was taken).",
  "table.undone": "{name} took back: {action}.",
  "err.rate_limited": "Too fast — slow down a little.",
  "err.over": "The game is over.",
  "err.generic": "Error: {msg}",

  // Scoring
  "sc.title": "Epoch {n} scoring",
  "sc.player": "Player",
  "sc.gods": "Gods",
  "sc.gold": "Gold",
  "sc.pharaohs": "Pharaohs",
  "sc.nile_flood": "Nile/Flood",
  "sc.civilization": "Civilization",
  "sc.monuments": "Monuments",
  "sc.suns": "Suns",
  "sc.total": "Epoch",
  "sc.score": "Score",
  "sc.hidden": "hidden",
  "sc.none": "No epoch scored yet.",
  "sc.short.gods": "God",
  "sc.short.gold": "Gold",
  "sc.short.pharaohs": "Phar",
  "sc.short.nile_flood": "Nile",
  "sc.short.civilization": "Civ",
  "sc.short.monuments": "Mon",
  "sc.short.suns": "Sun",
  "sc.short.total": "Σ",
  "sc.short.score": "Score",

  // Final
  "fin.title": "Final result",
  "fin.wins": "{name} wins with {score} points!",
  "fin.youWin": "You win with {score} points!",
  "fin.tie": "Tie on {score} points: {name} wins the tie-break holding the highest sun ({sun}) (R8.1).",
  "fin.place": "#",
  "fin.highSun": "Highest sun",

  // Replay
  "rp.title": "Replay",
  "rp.first": "Start",
  "rp.back": "Back",
  "rp.step": "Step",
  "rp.last": "End",
  "rp.play": "Play",
  "rp.pause": "Pause",
  "rp.epoch": "Epoch {n}",
  "rp.decision": "Decision {n} of {m}",
  "rp.viewAs": "Follow",
  "rp.speed": "Speed",
  "rp.speed0": "slow",
  "rp.speed1": "normal",
  "rp.speed2": "fast",
  "rp.download": "Download record",
  "rp.notReady": "The replay is available when the game has finished.",
  "rp.keys": "Keys: ← →  step, Home / End, 1–3 epoch",
  "rp.position": "Position in the game",

  // Help (keys)
  "help.title": "Keys and help",
  "help.keys": "d draw · r invoke Ra · p pass · n done · u undo · h hints (at tables with hints) · a sun's number to bid (two digits for 10–16) · ? this help",
  "help.clicks": "Click a tile on the auction track to take it with a God tile; click one of your own tiles to lose it to a disaster.",
  "help.rules": "Full rules summary",

  // Tiles categories
  "cat.ra": "Ra",
  "cat.god": "God",
  "cat.gold": "Gold",
  "cat.pharaoh": "Pharaoh",
  "cat.river": "Nile and Flood",
  "cat.civilization": "Civilization",
  "cat.monument": "Monument",
  "cat.disaster": "Disaster",

  // Rules page
  "rules.title": "Rules of Ra — a summary",
  "rules.intro": "Our own short summary of the rules this site plays by. The section numbers (R1, R2, …) are the ones the game log and error messages quote. The full rules text is printed in a terminal by the command “ra rules”.",
  "rules.tiles": "Tile reference",
  "rules.tileKind": "Tile",
  "rules.tileNames": "Names: original · 2016 · 2023",
  "rules.tileCount": "In the bag",
  "rules.tileEffect": "What it does",
  "rules.kept": "Kept after each epoch",
  "rules.keys": "Playing in the browser",
  "rules.contents": "Contents",
};

const RU = {
  "app.title": "Ра",
  "app.tagline": "Аукционная игра Книции о Древнем Египте — за одним столом онлайн",
  "nav.lobby": "Лобби",
  "nav.site": "Сайт",
  "nav.rules": "Правила",
  "nav.lang": "Язык",
  "nav.help": "Справка",
  "lang.en": "English",
  "lang.ru": "Русский",

  "lobby.new": "Новая игра",
  "lobby.seats": "Места",
  "lobby.seat": "Место {n}",
  "lobby.seatShort": "№{n}",
  "lobby.you": "Вы",
  "lobby.human": "Человек",
  "lobby.bot": "Бот",
  "lobby.level": "Уровень",
  "lobby.level.easy": "лёгкий",
  "lobby.level.medium": "средний",
  "lobby.level.hard": "сильный",
  "lobby.level.expert": "эксперт",
  "lobby.addSeat": "Добавить место",
  "lobby.removeSeat": "Убрать",
  "lobby.variant": "Вариант",
  "lobby.variant.standard": "Обычный",
  "lobby.variant.long": "Длинная игра вдвоём",
  "lobby.suns": "Солнц у игрока",
  "lobby.disasters": "Бедствия, взятые тайлами богов",
  "lobby.disasters.immediate": "Сразу (правила 2016, 2023)",
  "lobby.disasters.2008": "После всех взятий хода (правила 2008)",
  "lobby.disasters.short": "бедствия по правилам 2008",
  "lobby.hidden": "Скрытые очки",
  "lobby.hints": "Подсказки",
  "lobby.hintsHelp": "игроки могут узнать шанс на победу после каждого хода (по умолчанию выключены, если играют несколько человек)",
  "lobby.hiddenHelp": "Как во всех изданиях правил, жетоны очков лежат лицом вниз: каждый видит только свои очки до конца игры (R9.1). Снимите галочку для открытых очков.",
  "lobby.edition": "Названия тайлов",
  "lobby.edition.original": "Оригинал (1999)",
  "lobby.edition.2016": "Издание 2016",
  "lobby.edition.2023": "Издание 2023",
  "lobby.pace": "Скорость ботов",
  "lobby.pace.0": "мгновенно",
  "lobby.pace.0.5": "быстро (½ с)",
  "lobby.pace.1": "обычно (1 с)",
  "lobby.pace.2": "неспешно (2 с)",
  "lobby.name": "Ваше имя",
  "lobby.namePh": "например, Аня",
  "lobby.create": "Создать игру",
  "lobby.createWatch": "Создать и смотреть",
  "lobby.botsOnly": "Все места заняты ботами: вы будете смотреть, как они играют.",
  "lobby.created": "Игра создана. Отправьте друзьям эту ссылку:",
  "lobby.share": "Ссылка-приглашение",
  "lobby.copy": "Копировать",
  "lobby.copied": "Скопировано!",
  "lobby.goTable": "За стол",
  "lobby.yours": "Ваши игры",
  "lobby.open": "Открытые игры — присоединяйтесь",
  "lobby.running": "Идущие игры",
  "lobby.finished": "Законченные игры",
  "lobby.none": "Сейчас нет.",
  "lobby.showMore": "Показать ещё {n}",
  "lobby.join": "Сесть",
  "lobby.rejoin": "Вернуться",
  "lobby.spectate": "Смотреть",
  "lobby.replay": "Повтор",
  "lobby.forget": "Забыть",
  "lobby.refresh": "Обновить",
  "lobby.players": "игроков: {n}",
  "lobby.freeSeats": "свободно: {n}",
  "lobby.decisions": "ходов: {n}",
  "lobby.needName": "Сначала введите имя.",
  "lobby.tooManySeats": "От 2 до 5 игроков.",
  "lobby.needHuman": "Чтобы играть, нужно хотя бы одно место для человека.",
  "lobby.status.open": "ждёт игроков",
  "lobby.status.running": "идёт",
  "lobby.status.finished": "закончена",
  "lobby.seatAs": "место {n}",
  "lobby.winner": "победа: {name}",
  "lobby.importRecord": "Посмотреть сохранённую игру",
  "lobby.importFile": "Открыть файл записи…",
  "lobby.import": "Открыть повтор",

  "table.loading": "Подключаемся к столу…",
  "table.epoch": "Эпоха {n} из 3",
  "table.raTrack": "Трек Ра",
  "table.raTrackCount": "тайлов Ра: {n} из {m}",
  "table.auctionTrack": "Трек аукциона",
  "table.auctionCount": "тайлов: {n} из 8",
  "table.centerSun": "Солнце в центре",
  "table.bag": "В мешке: {n}",
  "table.empty": "пусто",
  "table.actions": "Ваши действия",
  "table.draw": "Тянуть тайл",
  "table.ra": "Призвать Ра",
  "table.pass": "Пас",
  "table.done": "Готово",
  "table.undo": "Отменить",
  "table.hint": "Подсказка: шансы",
  "table.hintThinking": "Оцениваю ходы…",
  "table.hintBest": "Лучший ход: {action} ({chance}% на победу)",
  "table.hintWeaker": "(совет слабее обычного: на сервере нет нативного ядра)",
  "table.bid": "Ставка {n}",
  "table.bidTitle": "Ставка солнцем:",
  "table.god": "Взять «{tile}» богом",
  "table.godHint": "Нажмите тайл со знаком ☥ на треке аукциона или кнопку ниже, чтобы взять его с помощью бога.",
  "table.discard": "Сбросить «{tile}»",
  "table.discardHint": "Нажмите свой тайл со знаком ✕ или кнопку ниже, чтобы сбросить его.",
  "table.waiting": "Ждём: {name}…",
  "table.spectating": "Вы наблюдаете за игрой.",
  "table.youLose": "Вы теряете: {tiles}.",
  "table.you": "вы",
  "table.bot": "бот",
  "table.online": "в сети",
  "table.offline": "не в сети",
  "table.free": "место свободно",
  "table.score": "Очки",
  "table.scoreHidden": "Очки скрыты (жетоны лицом вниз)",
  "table.toMove": "ходит",
  "table.suns": "Солнца",
  "table.faceUp": "открыто",
  "table.faceDown": "закрыто",
  "table.noSuns": "нет солнц",
  "table.group.gods": "Боги",
  "table.group.pharaohs": "Фараоны",
  "table.group.river": "Нил и разливы",
  "table.group.civ": "Цивилизация и золото",
  "table.group.monuments": "Памятники",
  "table.keepMark": "остаётся после эпохи",
  "legend.kept": "на тайле: остаётся после эпохи (фараоны, Нил, памятники); остальные сбрасываются.",
  "legend.tiles": "Все тайлы с пояснениями",
  "table.log": "Журнал игры",
  "table.pageTitle": "Игровой стол",
  "table.logJump": "Журнал игры ↓",
  "table.scores": "Подсчёт очков",
  "table.showScores": "Таблицы очков",
  "table.close": "Закрыть",
  "table.sound": "Звук",
  "table.soundOn": "Звук вкл.",
  "table.soundOff": "Звук выкл.",
  "table.replay": "Повтор",
  "table.record": "Скачать запись",
  "table.again": "Сыграть ещё",
  "table.rematchReady": "Реванш готов.",
  "table.goRematch": "К реваншу",
  "table.shareLink": "Ссылка-приглашение",
  "table.waitingRoom": "Ждём игроков",
  "table.waitingHelp": "Игра начнётся, когда все места для людей будут заняты. Поделитесь ссылкой:",
  "table.joinAs": "Занять место",
  "table.leave": "Освободить место",
  "table.yourTurnTitle": "▶ Ваш ход — Ра",
  "table.seatLinkSaved": "Ваше место сохранено в этом браузере.",
  "table.seatLink": "Ссылка на место (вернуться с другого устройства)",
  "table.notFound": "Такой игры нет.",
  "table.lastMove": "Последнее: {text}",
  "table.tilesLost": "потеряно",
  "table.viewAs": "Глазами",

  "st.yourAction": "Ваш ход: тяните тайл или призовите Ра.",
  "st.yourActionGod": "Ваш ход: тяните тайл, призовите Ра или возьмите тайл богом.",
  "st.yourActionRaOnly": "Ваш ход: трек аукциона заполнен — призовите Ра.",
  "st.action": "{name} думает: тянуть или призвать Ра.",
  "st.yourBidMust": "Ваша ставка — вы призвали Ра, и все спасовали: вы обязаны сделать ставку.",
  "st.yourBid": "Ваша ставка — {why}. {high}",
  "st.bid": "Ставку делает {name} — {why}. {high}",
  "st.why.drawn": "тайл Ра вытянул игрок {ra}",
  "st.why.voluntary": "Ра призвал игрок {ra}",
  "st.why.forced": "Ра на полном треке призвал игрок {ra}: если никто не поставит, тайлы уйдут из игры",
  "st.whyYou.drawn": "вы вытянули тайл Ра",
  "st.whyYou.voluntary": "вы призвали Ра",
  "st.whyYou.forced": "вы призвали Ра на полном треке: если никто не поставит, тайлы уйдут из игры",
  "st.bidLast.drawn": "Игрок {name} вытянул тайл Ра и ставит последним. {high}",
  "st.bidLast.voluntary": "Игрок {name} призвал Ра и ставит последним. {high}",
  "st.bidLast.forced": "Игрок {name} призвал Ра на полном треке и ставит последним: если никто не поставит, тайлы уйдут из игры. {high}",
  "st.high": "Высшая ставка: {sun}, {name}.",
  "st.noHigh": "Ставок пока нет.",
  "st.yourGod": "Возьмите ещё тайл богом или нажмите «Готово».",
  "st.god": "{name} пользуется богами.",
  "st.godPending": "Затем: {disasters} (бедствия по правилам 2008).",
  "st.yourDiscard": "{disaster}: выберите тайлы для сброса (ещё {n}).",
  "st.discard": "{name} выбирает, что потерять: {disaster}.",
  "st.over": "Игра окончена.",
  "st.raPlayer": "Игрок Ра",
  "st.auction": "Аукцион",

  "conn.lost": "Связь потеряна — переподключение через {s} с…",
  "conn.connecting": "Переподключаемся…",
  "conn.lostNow": "Связь потеряна — переподключаемся…",
  "table.watchLink": "Ссылка для зрителей",
  "nf.title": "Страница не найдена",
  "nf.text": "По этому адресу ничего нет: возможно, в ссылке опечатка или игры, на которую она вела, больше нет.",
  "nf.lobby": "В лобби",
  "nf.rules": "Правила",
  "conn.now": "Переподключиться",
  "conn.notSent": "Не отправлено: нет связи. Переподключаемся…",
  "table.thinking": "думает…",
  "conn.restored": "Связь восстановлена.",
  "conn.shutdown": "Сервер перезапускается — переподключаемся…",
  "err.stale": "Позиция изменилась; вот новая.",
  "err.illegal": "Этот ход сейчас невозможен.",
  "err.not_your_turn": "Сейчас не ваш ход.",
  "err.spectator": "Зрители не могут ходить.",
  "err.no_hints": "Подсказки за этим столом выключены.",
  "err.bad_token": "Ваш ключ места не принят; вы наблюдаете.",
  "err.seat_lost": "Это место больше не ваше (вы ушли или его заняли).",
  "table.undone": "{name} отменяет ход: {action}.",
  "err.rate_limited": "Слишком быстро — помедленнее.",
  "err.over": "Игра окончена.",
  "err.generic": "Ошибка: {msg}",

  "sc.title": "Очки за эпоху {n}",
  "sc.player": "Игрок",
  "sc.gods": "Боги",
  "sc.gold": "Золото",
  "sc.pharaohs": "Фараоны",
  "sc.nile_flood": "Нил/разлив",
  "sc.civilization": "Цивилизация",
  "sc.monuments": "Памятники",
  "sc.suns": "Солнца",
  "sc.total": "За эпоху",
  "sc.score": "Итого",
  "sc.hidden": "скрыто",
  "sc.none": "Эпох ещё не подсчитано.",
  "sc.short.gods": "Бог",
  "sc.short.gold": "Зол",
  "sc.short.pharaohs": "Фар",
  "sc.short.nile_flood": "Нил",
  "sc.short.civilization": "Цив",
  "sc.short.monuments": "Пам",
  "sc.short.suns": "Сол",
  "sc.short.total": "Σ",
  "sc.short.score": "Итого",

  "fin.title": "Итог игры",
  "fin.wins": "Побеждает {name}! Очков: {score}.",
  "fin.youWin": "Вы победили! Очков: {score}.",
  "fin.tie": "Ничья по очкам ({score}): побеждает {name} — у него(неё) старшее солнце ({sun}) (R8.1).",
  "fin.place": "№",
  "fin.highSun": "Старшее солнце",

  "rp.title": "Повтор",
  "rp.first": "В начало",
  "rp.back": "Назад",
  "rp.step": "Вперёд",
  "rp.last": "В конец",
  "rp.play": "Играть",
  "rp.pause": "Пауза",
  "rp.epoch": "Эпоха {n}",
  "rp.decision": "Ход {n} из {m}",
  "rp.viewAs": "Следить за",
  "rp.speed": "Скорость",
  "rp.speed0": "медленно",
  "rp.speed1": "обычно",
  "rp.speed2": "быстро",
  "rp.download": "Скачать запись",
  "rp.notReady": "Повтор доступен после окончания игры.",
  "rp.keys": "Клавиши: ← → шаг, Home / End, 1–3 эпоха",
  "rp.position": "Место в партии",

  "help.title": "Клавиши и справка",
  "help.keys": "d тянуть · r призвать Ра · p пас · n готово · u отменить · h подсказка (если включены) · номер солнца — ставка (две цифры для 10–16) · ? эта справка",
  "help.clicks": "Щёлкните тайл на треке аукциона, чтобы взять его богом; щёлкните свой тайл, чтобы потерять его при бедствии.",
  "help.rules": "Полная памятка по правилам",

  "cat.ra": "Ра",
  "cat.god": "Бог",
  "cat.gold": "Золото",
  "cat.pharaoh": "Фараон",
  "cat.river": "Нил и разлив",
  "cat.civilization": "Цивилизация",
  "cat.monument": "Памятник",
  "cat.disaster": "Бедствие",

  "rules.title": "Правила «Ра» — памятка",
  "rules.intro": "Наш собственный краткий пересказ правил, по которым играет этот сайт. Номера разделов (R1, R2, …) — те же, на которые ссылаются журнал игры и сообщения об ошибках. Полный текст правил печатает в терминале команда «ra rules».",
  "rules.tiles": "Справочник тайлов",
  "rules.tileKind": "Тайл",
  "rules.tileNames": "Названия: оригинал · 2016 · 2023",
  "rules.tileCount": "В мешке",
  "rules.tileEffect": "Что даёт",
  "rules.kept": "Остаётся после каждой эпохи",
  "rules.keys": "Игра в браузере",
  "rules.contents": "Содержание",
};

// ---- tiles ---------------------------------------------------------------

export const TILE_KINDS = [
  "ra", "god", "gold", "pharaoh", "nile", "flood",
  "astronomy", "agriculture", "writing", "religion", "art",
  "fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "step_pyramid", "temple",
  "funeral", "drought", "unrest", "earthquake",
];
export const CIVS = ["astronomy", "agriculture", "writing", "religion", "art"];
export const MONUMENTS = ["fortress", "obelisk", "palace", "pyramid", "sphinx", "statue", "step_pyramid", "temple"];
export const DISASTERS = ["funeral", "drought", "unrest", "earthquake"];
export const KEPT = new Set(["pharaoh", "nile", ...MONUMENTS]);
export const TILE_COUNTS = {
  ra: 30, god: 8, gold: 5, pharaoh: 25, nile: 25, flood: 12,
  astronomy: 5, agriculture: 5, writing: 5, religion: 5, art: 5,
  fortress: 5, obelisk: 5, palace: 5, pyramid: 5, sphinx: 5, statue: 5, step_pyramid: 5, temple: 5,
  funeral: 2, drought: 2, unrest: 4, earthquake: 2,
};

export function tileCategory(kind) {
  if (kind === "nile" || kind === "flood") return "river";
  if (CIVS.includes(kind)) return "civilization";
  if (MONUMENTS.includes(kind)) return "monument";
  if (DISASTERS.includes(kind)) return "disaster";
  return kind; // ra, god, gold, pharaoh
}

const TILE_NAMES = {
  en: {
    ra: "Ra", god: "God", gold: "Gold", pharaoh: "Pharaoh", nile: "Nile", flood: "Flood",
    astronomy: "Astronomy", agriculture: "Agriculture", writing: "Writing", religion: "Religion", art: "Art",
    fortress: "Fortress", obelisk: "Obelisk", palace: "Palace", pyramid: "Pyramid", sphinx: "Sphinx",
    statue: "Statue", step_pyramid: "Step Pyramid", temple: "Temple",
    funeral: "Funeral", drought: "Drought", unrest: "Unrest", earthquake: "Earthquake",
  },
  ru: {
    ra: "Ра", god: "Бог", gold: "Золото", pharaoh: "Фараон", nile: "Нил", flood: "Разлив",
    astronomy: "Астрономия", agriculture: "Земледелие", writing: "Письменность", religion: "Религия", art: "Искусство",
    fortress: "Крепость", obelisk: "Обелиск", palace: "Дворец", pyramid: "Пирамида", sphinx: "Сфинкс",
    statue: "Статуя", step_pyramid: "Ступенчатая пирамида", temple: "Храм",
    funeral: "Похороны", drought: "Засуха", unrest: "Смута", earthquake: "Землетрясение",
  },
};
// Short labels printed on the tile art (they must fit a small tile).
const TILE_SHORT = {
  en: { agriculture: "Agricult.", astronomy: "Astronomy", step_pyramid: "Step Pyr.", earthquake: "Quake", sanctuary: "Sanctuary", mausoleum: "Mausoleum" },
  ru: { astronomy: "Астроном.", agriculture: "Земледел.", writing: "Письмо", step_pyramid: "Ступ. пир.", earthquake: "Землетряс.", sanctuary: "Святилище", mausoleum: "Мавзолей" },
};
// R1.2 — edition renames (cosmetic).
const EDITION_NAMES = {
  "2016": { en: { unrest: "War" }, ru: { unrest: "Война" } },
  "2023": {
    en: { unrest: "War", fortress: "Sanctuary", palace: "Mausoleum" },
    ru: { unrest: "Война", fortress: "Святилище", palace: "Мавзолей" },
  },
};

export function tileName(kind, edition = "original", lang = currentLang()) {
  const ed = EDITION_NAMES[edition]?.[lang]?.[kind];
  return ed || TILE_NAMES[lang]?.[kind] || TILE_NAMES.en[kind] || kind;
}

export function tileShort(kind, edition = "original", lang = currentLang()) {
  const full = tileName(kind, edition, lang);
  if (edition === "2023" && kind === "fortress") return TILE_SHORT[lang].sanctuary;
  if (edition === "2023" && kind === "palace") return TILE_SHORT[lang].mausoleum;
  if (EDITION_NAMES[edition]?.[lang]?.[kind]) return full;
  return TILE_SHORT[lang]?.[kind] || full;
}

// What each tile does, for the tile reference and tooltips.
const TILE_HELP = {
  en: {
    ra: "Drawn: goes on the Ra track and starts an auction; the last space ends the epoch.",
    god: "+2 points each epoch; or spend it on your turn to take any non-God tile from the auction track.",
    gold: "+3 points each epoch.",
    pharaoh: "Most Pharaohs +5, fewest −2 (every epoch).",
    nile: "+1 each, but only if you hold at least one Flood.",
    flood: "+1 each and switches your Niles on. Discarded after the epoch.",
    civilization: "No civilization −5; 3, 4, 5 different types: +5, +10, +15.",
    monument: "Scored at the end of the game: 1 point per different type (10 for 7, 15 for 8), plus +5/+10/+15 for 3/4/5 of one type.",
    funeral: "Destroys two of your Pharaohs.",
    drought: "Destroys two Floods, or Niles if you lack Floods.",
    unrest: "Destroys two Civilization tiles of your choice.",
    earthquake: "Destroys two Monuments of your choice.",
  },
  ru: {
    ra: "Вытянутый тайл Ра ложится на трек Ра и начинает аукцион; последняя клетка завершает эпоху.",
    god: "+2 очка за эпоху; или потратьте его в свой ход, чтобы взять любой тайл (не бога) с трека аукциона.",
    gold: "+3 очка за эпоху.",
    pharaoh: "Больше всех фараонов +5, меньше всех −2 (каждую эпоху).",
    nile: "+1 за каждый, но только если есть хотя бы один разлив.",
    flood: "+1 за каждый и «включает» ваши Нилы. Сбрасывается после эпохи.",
    civilization: "Без цивилизаций −5; 3, 4, 5 разных видов: +5, +10, +15.",
    monument: "Считаются в конце игры: 1 очко за каждый разный вид (10 за 7, 15 за 8) и +5/+10/+15 за 3/4/5 одинаковых.",
    funeral: "Уничтожает двух ваших фараонов.",
    drought: "Уничтожает два разлива, а если их нет — Нилы.",
    unrest: "Уничтожает два тайла цивилизации на ваш выбор.",
    earthquake: "Уничтожает два памятника на ваш выбор.",
  },
};

// The server names bots "Easy bot", "Hard bot 2"…; show them in the page's language.
const BOT_NAMES = { ru: { Easy: "Лёгкий бот", Medium: "Средний бот", Hard: "Сильный бот" } };
export function playerName(name, lang = currentLang()) {
  if (name === null || name === undefined) return "?";
  const m = /^(Easy|Medium|Hard) bot(?: (\d+))?$/.exec(name);
  const table = BOT_NAMES[lang];
  if (!m || !table) return name;
  return table[m[1]] + (m[2] ? ` ${m[2]}` : "");
}

export function tileHelp(kind, lang = currentLang()) {
  const h = TILE_HELP[lang] || TILE_HELP.en;
  return h[kind] || h[tileCategory(kind)] || "";
}

// ---- language ------------------------------------------------------------

const CATALOGUE = { en: EN, ru: RU };
let LANG = null;

export function currentLang() {
  if (LANG) return LANG;
  let stored = null;
  try { stored = localStorage.getItem("ra.lang"); } catch (e) { /* private mode */ }
  if (stored && LANGS.includes(stored)) LANG = stored;
  else LANG = (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
  return LANG;
}

export function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  LANG = lang;
  try { localStorage.setItem("ra.lang", lang); } catch (e) { /* ignore */ }
  document.documentElement.lang = lang;
}

export function t(key, params = {}) {
  const lang = currentLang();
  let s = CATALOGUE[lang][key];
  if (s === undefined) s = EN[key];
  if (s === undefined) return key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined && params[k] !== null ? String(params[k]) : m));
}

// Fill every [data-i18n] element under root.
export function applyI18n(root = document) {
  document.documentElement.lang = currentLang();
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-ph]").forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  root.querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
}

// Russian plural: 1 тайл, 2 тайла, 5 тайлов.
function ruPlural(n, one, few, many) {
  const a = Math.abs(n) % 100, b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b === 1) return one;
  if (b >= 2 && b <= 4) return few;
  return many;
}

function signed(x) { return x > 0 ? `+${x}` : String(x); }

// A list of tiles in words ("2 Pharaoh and Nile").
export function tileList(tiles, edition, lang = currentLang()) {
  if (!tiles || !tiles.length) return lang === "ru" ? "ничего" : "no tiles";
  const counts = new Map();
  for (const k of tiles) counts.set(k, (counts.get(k) || 0) + 1);
  const parts = [...counts].sort((a, b) => TILE_KINDS.indexOf(a[0]) - TILE_KINDS.indexOf(b[0]))
    .map(([k, c]) => (c > 1 ? `${c}× ${tileName(k, edition, lang)}` : tileName(k, edition, lang)));
  const and = lang === "ru" ? " и " : " and ";
  return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + and + parts[parts.length - 1];
}

export const SCORE_CATEGORIES = ["gods", "gold", "pharaohs", "nile_flood", "civilization", "monuments", "suns"];

// ---- the game log in words -------------------------------------------------

export function eventText(ev, names, edition = "original", lang = currentLang()) {
  const who = (s) => (s === null || s === undefined ? "?" : names[s] || `#${s + 1}`);
  const p = who(ev.seat);
  const tn = (k) => (k ? tileName(k, edition, lang) : "?");
  const d = ev.detail;
  if (lang === "ru") {
    switch (ev.kind) {
      case "epoch": return `Начинается эпоха ${d}; первым ходит ${p}.`;
      case "draw": return ev.tile === "ra" ? `${p} тянет Ра (на треке Ра: ${d}).` : `${p} тянет: ${tn(ev.tile)}.`;
      case "invoke": return `${p} призывает Ра${ev.auto ? " (единственный возможный ход)" : ""}.`;
      case "auction": {
        const how = { drawn: "вытянут тайл Ра", voluntary: "призван Ра", forced: "Ра призван при полном треке" }[d] || d;
        return `Аукцион (${how}); игрок Ра — ${p}, ставит последним.`;
      }
      case "bid": return `${p} ставит солнце ${ev.sun}${ev.auto ? " (обязан, единственное солнце)" : ""}.`;
      case "pass": {
        if (!ev.auto) return `${p} пасует.`;
        const m = /higher than (\d+)/.exec(String(d || ""));
        const why = m ? `нет солнца выше ${m[1]}` : "нет открытых солнц";
        return `${p} пасует (${why}).`;
      }
      case "win": return ev.tiles && ev.tiles.length
        ? `${p} выигрывает солнцем ${ev.sun} и забирает: ${tileList(ev.tiles, edition, lang)}, а также солнце ${d} (лицом вниз).`
        : `${p} выигрывает солнцем ${ev.sun}: тайлов нет, берёт солнце ${d} (лицом вниз).`;
      case "no_bid": return d === "removed"
        ? `Никто не поставил; ${ev.tiles.length} ${ruPlural(ev.tiles.length, "тайл уходит", "тайла уходят", "тайлов уходят")} из игры с полного трека.`
        : "Никто не поставил; тайлы остаются на треке.";
      case "god": return `${p} берёт богом: ${tn(ev.tile)}.`;
      case "done": return `${p} больше не берёт богами.`;
      case "disaster": return `${tn(ev.tile)} поражает игрока ${p}: теряет ${d} ${ruPlural(d, "тайл", "тайла", "тайлов")}.`;
      case "discard": return `${p} теряет: ${tn(ev.tile)}${ev.auto ? "" : " (по выбору)"}.`;
      case "epoch_end": {
        const [ep, reason] = d || [];
        return `Эпоха ${ep} окончена: ${reason === "ra_track" ? "трек Ра заполнен" : "ни у кого нет открытых солнц"}.`;
      }
      case "score": {
        if (!d) return `${p} получает очки (скрыто).`;
        const parts = SCORE_CATEGORIES.filter((c) => d[c]).map((c) => `${(RU["sc." + c] || c).toLowerCase()} ${signed(d[c])}`).join(", ");
        return `${p}: ${signed(d.total)} (${parts || "ничего"}): ${d.before} → ${d.after}.`;
      }
      case "game_over": return `Игра окончена: побеждает ${p}${d ? " по старшему солнцу (R8.1)" : ""}.`;
      default: return ev.text || ev.kind;
    }
  }
  switch (ev.kind) {
    case "epoch": return `Epoch ${d} begins; ${p} plays first.`;
    case "draw": return ev.tile === "ra" ? `${p} draws Ra (${d} on the Ra track).` : `${p} draws ${tn(ev.tile)}.`;
    case "invoke": return `${p} invokes Ra${ev.auto ? " (the only possible action)" : ""}.`;
    case "auction": {
      const how = { drawn: "a drawn Ra tile", voluntary: "Ra invoked", forced: "Ra invoked on a full track" }[d] || d;
      return `Auction (${how}); ${p} is the Ra player and bids last.`;
    }
    case "bid": return `${p} bids sun ${ev.sun}${ev.auto ? " (must bid, the only sun)" : ""}.`;
    case "pass": return ev.auto ? `${p} passes (${d}).` : `${p} passes.`;
    case "win": return `${p} wins with sun ${ev.sun}: takes ${tileList(ev.tiles, edition, lang)} and sun ${d} (face down).`;
    case "no_bid": return d === "removed"
      ? `Nobody bids; the ${ev.tiles.length} tiles on the full auction track leave the game.`
      : "Nobody bids; the tiles stay on the auction track.";
    case "god": return `${p} uses a God tile to take ${tn(ev.tile)}.`;
    case "done": return `${p} stops using God tiles.`;
    case "disaster": return `${tn(ev.tile)} strikes ${p}: ${d} tile(s) lost.`;
    case "discard": return `${p} loses ${tn(ev.tile)}${ev.auto ? "" : " (chosen)"}.`;
    case "epoch_end": {
      const [ep, reason] = d || [];
      return `Epoch ${ep} ends: ${reason === "ra_track" ? "the Ra track is full" : "no player has a face-up sun"}.`;
    }
    case "score": {
      if (!d) return `${p} scores (hidden).`;
      const parts = SCORE_CATEGORIES.filter((c) => d[c]).map((c) => `${EN["sc." + c] || c} ${signed(d[c])}`).join(", ");
      return `${p} scores ${signed(d.total)} (${parts || "nothing"}): ${d.before} → ${d.after}.`;
    }
    case "game_over": return `Game over: ${p} wins${d ? " on the tie-break (highest sun, R8.1)" : ""}.`;
    default: return ev.text || ev.kind;
  }
}

// ---- the rules summary (our own words) ------------------------------------

export const RULES = {
  en: [
    ["R1", "Components", [
      "180 tiles in a bag: 30 Ra, 8 Gods, 5 Gold, 25 Pharaohs, 25 Niles, 12 Floods, 25 Civilizations (5 each of Astronomy, Agriculture, Writing, Religion, Art), 40 Monuments (5 each of 8 kinds) and 10 Disasters (2 Funeral, 2 Drought, 4 Unrest, 2 Earthquake).",
      "Names differ between editions (Unrest is War in 2016 and 2023; the 2023 edition calls two monuments Sanctuary and Mausoleum). Only the names change, never the rules.",
      "Suns are numbered 1 to 16; sun 1 starts in the centre.",
    ]],
    ["R2", "Setup", [
      "2 to 5 players, each starting with 10 points.",
      "Each player gets a group of suns: 2 players 9-6-5-2 / 8-7-4-3; 3 players 13-8-5-2 / 12-9-6-3 / 11-10-7-4; 4 players 13-6-2 / 12-7-3 / 11-8-4 / 10-9-5; 5 players 16-7-2 / 15-8-3 / 14-9-4 / 13-10-5 / 12-11-6.",
      "The Ra track has 6, 8, 9 or 10 spaces for 2, 3, 4 or 5 players. The long two-player game gives each player 4 to 7 suns.",
      "The holder of the highest sun starts.",
    ]],
    ["R3", "Your turn", [
      "If you have no face-up sun you sit out until the epoch ends.",
      "Otherwise do one thing: draw a tile (if the auction track has room and the bag is not empty), invoke Ra, or spend God tiles.",
      "A drawn tile goes on the auction track — unless it is Ra: then it goes on the Ra track and an auction starts, or, if that fills the Ra track, the epoch ends at once.",
      "A God tile lets you take any one non-God tile from the auction track; you may spend several, one after another.",
    ]],
    ["R4", "Auctions", [
      "Starting left of the Ra player and ending with the Ra player, everyone gets one chance to bid a single face-up sun higher than the current bid, or pass.",
      "If you invoked Ra yourself and everyone else passed, you must bid. After a drawn Ra tile or a full track anyone may pass.",
      "The winner takes all tiles on the auction track and the centre sun (face down, usable next epoch), and puts the winning sun in the centre.",
      "If nobody bids, the tiles stay — except on a full track, where they leave the game.",
    ]],
    ["R5", "Disasters", [
      "Disasters take effect after the lot is placed, and can destroy tiles you just won.",
      "Funeral: two Pharaohs. Drought: two Floods, then Niles. Unrest/War: two Civilizations of your choice. Earthquake: two Monuments of your choice.",
      "Several disasters of one kind add up. You are asked only when you really have a choice.",
    ]],
    ["R6", "End of an epoch", [
      "An epoch ends when a drawn Ra tile fills the Ra track, or after an auction when nobody has a face-up sun left.",
      "Both tracks are cleared, everyone scores, then Gods, Gold, Civilizations and Floods are discarded. Pharaohs, Niles and Monuments stay (look for the scarab mark).",
      "All suns turn face up again; the highest sun starts the next epoch.",
    ]],
    ["R7", "Scoring", [
      "Every epoch: God +2 each; Gold +3 each; most Pharaohs +5, fewest −2; with at least one Flood, +1 per Flood and per Nile; Civilizations: none −5, 3/4/5 different kinds +5/+10/+15.",
      "After the third epoch also: Monuments (1 point per different kind, 10 for seven, 15 for all eight, plus +5/+10/+15 for 3/4/5 of one kind) and suns (highest total +5, lowest −5).",
      "A score never drops below zero.",
    ]],
    ["R8", "End of the game", [
      "After the third epoch the highest score wins. A tie goes to the tied player holding the highest sun.",
    ]],
    ["R9", "Information", [
      "Everything is open except the order of tiles in the bag — and, as the rulebooks say, the scores: each player sees only their own score until the end (the table option \"hidden scores\", on by default here).",
    ]],
  ],
  ru: [
    ["R1", "Компоненты", [
      "В мешке 180 тайлов: 30 Ра, 8 богов, 5 золота, 25 фараонов, 25 Нилов, 12 разливов, 25 цивилизаций (по 5 астрономии, земледелия, письменности, религии, искусства), 40 памятников (по 5 восьми видов) и 10 бедствий (2 похорон, 2 засухи, 4 смуты, 2 землетрясения).",
      "В разных изданиях названия отличаются (смута — «Война» в 2016 и 2023; в 2023 два памятника называются Святилище и Мавзолей). Меняются только названия, не правила.",
      "Солнца пронумерованы от 1 до 16; солнце 1 начинает в центре.",
    ]],
    ["R2", "Подготовка", [
      "От 2 до 5 игроков, у каждого в начале 10 очков.",
      "Каждый получает набор солнц: вдвоём 9-6-5-2 / 8-7-4-3; втроём 13-8-5-2 / 12-9-6-3 / 11-10-7-4; вчетвером 13-6-2 / 12-7-3 / 11-8-4 / 10-9-5; впятером 16-7-2 / 15-8-3 / 14-9-4 / 13-10-5 / 12-11-6.",
      "На треке Ра 6, 8, 9 или 10 клеток для 2, 3, 4 или 5 игроков. В длинной игре вдвоём у каждого от 4 до 7 солнц.",
      "Начинает владелец старшего солнца.",
    ]],
    ["R3", "Ваш ход", [
      "Если у вас нет открытых солнц, вы пропускаете ходы до конца эпохи.",
      "Иначе сделайте одно: вытяните тайл (если на треке аукциона есть место и мешок не пуст), призовите Ра или используйте богов.",
      "Вытянутый тайл ложится на трек аукциона — кроме Ра: он идёт на трек Ра и начинает аукцион, а если заполняет трек Ра, эпоха сразу кончается.",
      "Бог позволяет взять с трека аукциона любой тайл, кроме бога; можно потратить несколько богов подряд.",
    ]],
    ["R4", "Аукцион", [
      "Начиная с соседа слева от игрока Ра и заканчивая им самим, каждый один раз может поставить одно открытое солнце выше текущей ставки или спасовать.",
      "Если вы сами призвали Ра и все спасовали, вы обязаны поставить. После вытянутого Ра или при полном треке пасовать могут все.",
      "Победитель забирает все тайлы с трека и солнце из центра (лицом вниз, до следующей эпохи), а своё солнце кладёт в центр.",
      "Если никто не поставил, тайлы остаются — кроме полного трека: тогда они уходят из игры.",
    ]],
    ["R5", "Бедствия", [
      "Бедствия действуют после того, как выигранные тайлы выложены, и могут уничтожить только что выигранное.",
      "Похороны: два фараона. Засуха: два разлива, затем Нилы. Смута/Война: две цивилизации на выбор. Землетрясение: два памятника на выбор.",
      "Бедствия одного вида складываются. Выбирать приходится только когда выбор действительно есть.",
    ]],
    ["R6", "Конец эпохи", [
      "Эпоха кончается, когда вытянутый Ра заполняет трек Ра, или после аукциона, если ни у кого не осталось открытых солнц.",
      "Оба трека очищаются, все получают очки, затем сбрасываются боги, золото, цивилизации и разливы. Фараоны, Нилы и памятники остаются (знак скарабея).",
      "Все солнца снова открываются; следующую эпоху начинает старшее солнце.",
    ]],
    ["R7", "Подсчёт очков", [
      "Каждую эпоху: бог +2; золото +3; больше всех фараонов +5, меньше всех −2; при хотя бы одном разливе +1 за разлив и за Нил; цивилизации: нет ни одной −5, 3/4/5 разных видов +5/+10/+15.",
      "После третьей эпохи ещё: памятники (1 очко за каждый разный вид, 10 за семь, 15 за все восемь, плюс +5/+10/+15 за 3/4/5 одинаковых) и солнца (наибольшая сумма +5, наименьшая −5).",
      "Очки не опускаются ниже нуля.",
    ]],
    ["R8", "Конец игры", [
      "После третьей эпохи побеждает набравший больше всех очков. При ничьей побеждает тот из них, у кого старшее солнце.",
    ]],
    ["R9", "Информация", [
      "Всё открыто, кроме порядка тайлов в мешке — и, как в правилах, очков: каждый видит только свои очки до конца игры (опция «скрытые очки», здесь включена по умолчанию).",
    ]],
  ],
};
