#!/usr/bin/env python3
"""Deterministic synthetic vault for the Sheaf benchmarks (Python 3 standard library only).

    python3 Benchmarks/generate_vault.py --notes 10000 --seed 1 OUT_DIR
    python3 Benchmarks/generate_vault.py --edit 100 --seed 7 VAULT

Generate mode writes NOTES markdown notes into OUT_DIR (which must be missing or empty) and prints
the total bytes written. The same --notes and --seed give byte-for-byte identical files (with the
same Python 3 minor version: only `random.Random` with an explicit seed is used, no wall clock, no
hash-ordered iteration). File mtimes are set from each note's dates, so they are deterministic too.

Edit mode deterministically edits N notes of VAULT in place (appends a paragraph, changes one tag;
line endings and all other bytes are kept), prints the edited paths (relative, one per line) on
stdout and a summary on stderr. It drives the "incremental index after N edits" and "pull of N
changed notes" benchmarks. The same vault content and --seed pick the same notes and edits.

What a vault holds (see Benchmarks/README.md): nested folders (1-4 levels, 10-50 notes each),
log-normal sizes (median ~3 KB, mean ~4.5 KB, cap 60 KB), YAML front-matter on ~85% of notes
(id, title, created, tags in block/flow/string forms, sometimes aliases, modified, date, unknown
keys), Zipf-distributed English-like text over ~20k word forms with inflections, headings, lists,
code fences, inline #tags, [[wiki-links]] (1-8 per note, ~3% dangling), relative markdown links,
embeds of images that do not exist, ~5% non-Latin notes (Russian, Greek, French, Portuguese,
Chinese, Japanese), ~1% CRLF notes and a few with a UTF-8 BOM.
"""

import argparse
import bisect
import itertools
import os
import posixpath
import random
import re
import sys
import time
import uuid

FORMAT_VERSION = "sheaf-bench-vault-1"
VOCAB_SEED = 20260101  # the vocabulary is the same for every --seed, so queries stay comparable
MTIME_CAP = 1793491200  # 2026-11-01T00:00:00Z: no mtime in the future of the benchmark runs
CREATED_FROM = 1546300800  # 2019-01-01T00:00:00Z
CREATED_TO = 1790812800  # 2026-10-01T00:00:00Z
SIZE_MEDIAN = 2900
SIZE_SIGMA = 0.9  # mean = median * exp(sigma^2 / 2) ~ 4.5 KB
SIZE_CAP = 60000
SIZE_MIN = 60

# --------------------------------------------------------------------------------------------
# Word lists
# --------------------------------------------------------------------------------------------

FUNCTION_WORDS = """the of and to a in is that for it was on with as be this by at or from but not
are have an they which one you we all can there their has been if more when will would who so no
what about up out some into than then them these other its also only over after our just how most
very could any where both each few such because while through between before under again here
those same should still may might must her his he she I my your me us do does did were had being
now well even much many own off down too every never always often without within against during
until upon yet once later soon already almost enough quite rather perhaps maybe""".split()

IRREGULAR_VERBS = [
    ("run", "runs", "running", "ran", "run"), ("go", "goes", "going", "went", "gone"),
    ("write", "writes", "writing", "wrote", "written"), ("take", "takes", "taking", "took", "taken"),
    ("make", "makes", "making", "made", "made"), ("see", "sees", "seeing", "saw", "seen"),
    ("find", "finds", "finding", "found", "found"), ("think", "thinks", "thinking", "thought", "thought"),
    ("build", "builds", "building", "built", "built"), ("begin", "begins", "beginning", "began", "begun"),
    ("keep", "keeps", "keeping", "kept", "kept"), ("read", "reads", "reading", "read", "read"),
    ("meet", "meets", "meeting", "met", "met"), ("bring", "brings", "bringing", "brought", "brought"),
    ("leave", "leaves", "leaving", "left", "left"), ("give", "gives", "giving", "gave", "given"),
    ("get", "gets", "getting", "got", "gotten"), ("know", "knows", "knowing", "knew", "known"),
    ("come", "comes", "coming", "came", "come"), ("say", "says", "saying", "said", "said"),
    ("tell", "tells", "telling", "told", "told"), ("feel", "feels", "feeling", "felt", "felt"),
    ("buy", "buys", "buying", "bought", "bought"), ("sell", "sells", "selling", "sold", "sold"),
    ("send", "sends", "sending", "sent", "sent"), ("spend", "spends", "spending", "spent", "spent"),
    ("hold", "holds", "holding", "held", "held"), ("stand", "stands", "standing", "stood", "stood"),
    ("lose", "loses", "losing", "lost", "lost"), ("choose", "chooses", "choosing", "chose", "chosen"),
    ("speak", "speaks", "speaking", "spoke", "spoken"), ("break", "breaks", "breaking", "broke", "broken"),
    ("drive", "drives", "driving", "drove", "driven"), ("ride", "rides", "riding", "rode", "ridden"),
    ("eat", "eats", "eating", "ate", "eaten"), ("fall", "falls", "falling", "fell", "fallen"),
    ("grow", "grows", "growing", "grew", "grown"), ("draw", "draws", "drawing", "drew", "drawn"),
    ("fly", "flies", "flying", "flew", "flown"), ("sing", "sings", "singing", "sang", "sung"),
    ("swim", "swims", "swimming", "swam", "swum"), ("sleep", "sleeps", "sleeping", "slept", "slept"),
    ("teach", "teaches", "teaching", "taught", "taught"), ("catch", "catches", "catching", "caught", "caught"),
    ("pay", "pays", "paying", "paid", "paid"), ("lead", "leads", "leading", "led", "led"),
    ("set", "sets", "setting", "set", "set"), ("put", "puts", "putting", "put", "put"),
    ("cut", "cuts", "cutting", "cut", "cut"), ("forget", "forgets", "forgetting", "forgot", "forgotten"),
    ("understand", "understands", "understanding", "understood", "understood"),
    ("wake", "wakes", "waking", "woke", "woken"), ("throw", "throws", "throwing", "threw", "thrown"),
]

REGULAR_VERBS = """sync merge index search plan walk talk work move open close start finish check test fix
push pull commit review call ask need want use try learn play cook travel visit watch listen change
update track share note link tag edit save load store parse render measure compare collect organize
follow improve create delete rename schedule discuss decide prepare publish release deploy design
draft sketch export import refactor debug restore archive return remember stop drop shop jog clean
paint fill print scan label sort filter count order list book cancel confirm reply answer explain
describe remove add copy paste install configure upgrade migrate benchmark profile optimize cache
summarize outline highlight annotate bookmark clip capture record translate study practise hike
bake boil fry chop stir taste plant water harvest prune repair replace borrow lend""".split()

NOUNS = """meeting note idea project book chapter garden recipe trip city train station coffee tea
kitchen budget invoice client team server database query file folder vault paper article question
answer problem solution task deadline week month year day morning evening night friend family doctor
health exercise river mountain forest island bridge road market bread cheese wine apple lemon garlic
onion tomato pasta soup sauce oven window door table chair lamp phone laptop keyboard screen camera
photo image music song film story history science theory system process model network memory
language word sentence letter email message report calendar goal habit strategy customer product
feature version branch conflict backup device weekend holiday ticket flight hotel museum beach
neighbour teacher student lesson course exam library notebook pencil journal diary dream plant
flower seed tree bird dog cat horse coast harbour village valley lake weather rain snow summer
winter spring autumn office desk contract manager colleague workshop conference talk slide draft
outline summary quote source reference link tag index search release milestone sprint ticket bug
patch diff repository remote pipeline script terminal shell editor plugin theme""".split()

ADJECTIVES = """quick slow small large old new early late simple clear quiet bright dark warm cold short
long strong weak happy careful useful important different possible recent local remote open private
public final daily weekly green blue red yellow heavy light cheap fresh clean busy calm rough smooth
soft hard deep wide narrow rich poor fast safe loud sweet bitter""".split()

ADVERB_ADJ = set("quick slow clear quiet bright warm careful recent final rough smooth soft deep wide "
                 "loud sweet safe strong weak calm fresh cheap".split())
COMPARATIVE_ADJ = set("quick slow small large old new early late simple clear quiet bright dark warm "
                      "cold short long strong weak happy cheap fresh clean busy calm rough smooth soft "
                      "hard deep wide narrow rich poor fast safe loud sweet".split())

PROPER_NOUNS = """Lisbon Porto Paris Berlin Tokyo Kyoto Athens Moscow London Madrid Rome Oslo Alice Bob
Carol Dave Erin Frank Grace Heidi Ivan Judy Mallory Oscar Peggy Trent Victor Walter Monday Tuesday
Wednesday Thursday Friday Saturday Sunday January February March April June July August September
October November December Linux Swift Python SQLite GitHub Obsidian""".split()

ACCENTED_LOANWORDS = """café cafés naïve façade résumé déjà vu crème brûlée über jalapeño piñata
fiancée entrée São Zürich Málaga Kraków señor doppelgänger smörgåsbord""".split()

# English-like generated words: mostly consonant-vowel syllables, a few clusters, derivational
# suffixes; words with 3+ consonants or vowels in a row are rejected.
ONSETS = (["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w"] * 3 +
          ["j", "z", "y", "qu", "br", "cr", "dr", "fr", "gr", "pl", "pr", "st", "tr", "sh", "ch", "th",
           "bl", "cl", "fl", "sl", "sp", "", "", "", "", ""])
VOWELS = ["a", "e", "i", "o", "u"] * 4 + ["a", "e", "o", "ai", "ea", "ee", "oo", "ou", "y"]
CODAS = [""] * 14 + ["n", "r", "l", "s", "t", "m", "nd", "nt", "st", "ck", "ng", "rt", "x", "sh"]
SUFFIXES = ["tion", "ment", "ness", "al", "ity", "ous", "ic", "ure", "ance", "ive", "ist", "ism",
            "age", "ary", "let", "ine", "ette", "ory"]
BAD_WORD = re.compile(r"[^aeiouy]{3,}|[aeiou]{3,}|(.)\1\1|^[^aeiouy]*$|yy|qu$|q[^u]")

# Russian: common real words (several inflected forms) first, generated words after.
RUSSIAN_WORDS = """и в не на я что он с как а то это по к но из у за от так же вы мы о бы все
она они был была было были для уже или ещё если только когда даже там где тут здесь очень
работа работы работу работе работать работаю работал встреча встречи встречу проект проекта
проекты заметка заметки заметку день дня дни неделя недели неделю год года году время времени
дом дома доме город города городе книга книги книгу читать читаю читал читала писать пишу писал
бегать бегаю бегал бег думать думаю думал идея идеи план плана планы задача задачи задачу
сегодня завтра вчера утром вечером ночью новый новая новое новые старый старая хороший хорошая
большой большая маленький маленькая важный важная важно нужно можно надо сделать делать делаю
сделал сделала поездка поездки поездку море моря поезд поезда кофе чай хлеб суп обед ужин завтрак
друг друга друзья семья семьи мама папа брат сестра письмо письма сообщение файл файлы папка
поиск индекс синхронизация изменения изменение версия ветка сервер база данных список списка
вопрос вопросы ответ ответы слово слова язык языка русский текст текста""".split()
RU_ONSETS = ["б", "в", "г", "д", "ж", "з", "к", "л", "м", "н", "п", "р", "с", "т", "ф", "х", "ц",
             "ч", "ш", "щ", "пр", "ст", "тр", "кр", "вл", "зв", "сл", ""]
RU_VOWELS = ["а", "е", "и", "о", "у", "ы", "я", "ю", "о", "а", "е", "и", "о", "а"]
RU_ENDINGS = ["", "", "ость", "ение", "ский", "ать", "ить", "ого", "ая", "ые", "ами", "ов", "ой",
              "ему", "ник", "ка", "ки", "ую", "ешь", "ют"]

GREEK_WORDS = """και το η ο να είναι για με σε την της του των από που στο στη ένα μια δεν θα
σημειώσεις σημείωση ταξίδι ταξίδια σπίτι δουλειά θάλασσα καφές βιβλίο βιβλία μέρα μέρες νύχτα
πρωί βράδυ σήμερα αύριο χθες φίλος φίλοι οικογένεια πόλη χωριό δρόμος αγορά ψωμί τυρί κρασί
νερό ήλιος ουρανός καλοκαίρι χειμώνας άνοιξη φθινόπωρο γράφω γράφει έγραψα διαβάζω διάβασα
τρέχω τρέχει έτρεξα σκέφτομαι ιδέα ιδέες σχέδιο έργο συνάντηση λίστα ερώτηση απάντηση γλώσσα
ελληνικά αλφάβητο μάθημα καλός καλή καλό μεγάλος μικρός νέος παλιός ωραίος σημαντικός""".split()
EL_ONSETS = ["β", "γ", "δ", "ζ", "θ", "κ", "λ", "μ", "ν", "ξ", "π", "ρ", "σ", "τ", "φ", "χ", "ψ",
             "στ", "πρ", "τρ", "κρ", "γρ", ""]
EL_VOWELS = ["α", "ε", "η", "ι", "ο", "υ", "ω", "α", "ε", "ι", "ο", "ου", "αι", "ει"]
EL_TONOS = {"α": "ά", "ε": "έ", "η": "ή", "ι": "ί", "ο": "ό", "υ": "ύ", "ω": "ώ"}
RU_EL_VOWEL_CHARS = "аеиоуыяюёэαεηιουωάέήίόύώ"
EL_ENDINGS = ["ς", "ος", "ης", "ας", "α", "η", "ο", "ι", "ών", "ές", "ει", "ουν", ""]

FRENCH_WORDS = """le la les de des et à un une est pour dans que qui pas sur avec au du en il elle
nous vous ils ce cette mais ou où très déjà ça été être avoir fait faire café crème réunion idée
première élève fenêtre hôtel forêt château garçon français fête théâtre bibliothèque numéro
télévision économie préféré intéressant médecin école église répondre écrire écrit écrivait lire
lu lisait courir couru courait pensée pensées journée soirée matinée année étude études voyage
voyages gâteau pâtes pâtisserie marché rivière mère père frère sœur cœur œuvre naïf noël août
mémoire répertoire dépôt fusion conflit ébauche brouillon numérique données réseau serveur
problème système thème modèle règle siècle nouvelle nouveau belle beau petit grand""".split()

PORTUGUESE_WORDS = """o a os as de do da em no na e que um uma para com não ação ações informação
coração pão mãe irmã avô avó você também está já até café manhã canção lição educação questão
reunião reuniões viagem viagens praça açúcar cabeça amanhã então português língua memória
história técnica música número página análise índice pesquisa sincronização versão versões
trabalho trabalhar trabalhando trabalhou cidade cidades comida bacalhau feijão mar praia rua
caminho correr correndo correu ler lendo leu escrever escrevendo escreveu ideia ideias projeto
projetos semana mês ano dia noite tarde bom boa grande pequeno novo nova velho obrigado""".split()

CJK_CHARS = """的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家
学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公
同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名
定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加
化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白
应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它
许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟
带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技
轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议
形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴布断突病
茶咖啡店旅行京都東京駅電車時間会議資料検索索引同期変更記録日記週末料理""".replace("\n", "")
HIRAGANA_PARTICLES = ["の", "は", "が", "を", "に", "で", "と", "も", "から", "まで", "へ", "や"]
JA_ENDINGS = ["です。", "ます。", "しました。", "でした。", "します。", "だ。", "ですね。", "ません。"]
KATAKANA = ["ノート", "データ", "サーバー", "ファイル", "フォルダ", "メモ", "リンク", "タグ", "コーヒー",
            "カフェ", "ホテル", "テスト", "バックアップ", "プロジェクト", "ミーティング", "スケジュール",
            "リスト", "アイデア", "レシピ", "パスタ", "ラーメン", "カメラ", "バス", "タクシー", "ニュース"]

FOLDER_NAMES = """Projects Archive Journal Meetings Reading Recipes Trips Work Personal Inbox Research
Ideas Clients Areas Resources Drafts Notes Daily Books Articles Courses Health Finance Home Garden
Music Photography Talks People Templates Travel Family Kitchen Learning Writing Design Ops
Infrastructure Team Hiring Interviews Retrospectives Planning Budget Legal Taxes Car Sport Running
Cycling Languages Papers Podcasts Films Games Reviews Experiments Snippets Support Sales Marketing
Events Conferences Workshops Onboarding Handbook Wiki Misc""".split() + [
    "Weekly reviews", "Code snippets", "Reading list", "Side projects", "Someday maybe",
    "Meeting notes", "Book notes", "Travel plans", "Home improvement", "Café culture", "Références",
    "Réunions", "Études", "Ação social", "Viagens", "Orçamento", "Français", "Éditions",
    "Zürich office", "Kraków trip", "São Paulo", "Málaga", "Crème de la crème", "Bibliothèque",
    "Año nuevo", "Übungen", "Gärten", "Notes de cours", "Projetos em andamento", "Документы",
    "Ελληνικά", "日本語メモ", "Q1 review", "Q2 review", "Q3 review", "Q4 review"]

TAG_WORDS = """reading books ideas journal work travel recipes health finance meeting todo inbox
research writing music film photography garden cooking running cycling fitness family friends
learning language code swift python sqlite git sync search design review draft important urgent
later someday reference quote article paper podcast video course talk conference interview hiring
budget tax home car house kitchen coffee tea wine bread baking history science philosophy math
physics biology economics politics productivity habit goal retro planning weekly daily monthly
yearly decision question answer bug feature release ops infra security privacy backup archive
follow-up to-read to_watch waiting blocked done idea-bank café ação русский 日本語""".split()
GREEK_LETTERS = """alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi
rho sigma tau upsilon phi chi psi omega""".split()
TAG_AREAS = "health finance home work learning family writing travel garden fitness".split()
TAG_PEOPLE = "alice bob carol dave erin frank grace heidi ivan judy mallory oscar peggy trent".split()
TAG_TYPES = "meeting note log book person place recipe howto".split()

CODE_LANGS = ["python", "swift", "sh", "c", "json", "yaml", "sql", ""]
TZ_OFFSETS = ["+00:00", "+01:00", "+02:00", "-05:00", "-08:00", "+05:30", "+09:00", "-03:00",
              "+10:00", "+01:00", "+02:00", "+00:00"]
STATUSES = ["draft", "active", "done", "someday", "archived", "review"]
NON_LATIN_LANGS = [("ru", 0.35), ("el", 0.15), ("fr", 0.15), ("pt", 0.15), ("zh", 0.10), ("ja", 0.10)]
FORBIDDEN_NAME_CHARS = re.compile(r'[/\\:*?"<>|\x00-\x1f\x7f]')


def cumulative(weights):
    return list(itertools.accumulate(weights))


def zipf_weights(n, s=1.0, q=2.7):
    return [1.0 / (r + q) ** s for r in range(n)]


# --------------------------------------------------------------------------------------------
# Morphology and the vocabulary
# --------------------------------------------------------------------------------------------

def _is_vowel(c):
    return c in "aeiou"


def verb_forms(v):
    if v.endswith(("s", "x", "z", "ch", "sh")):
        third = v + "es"
    elif v.endswith("y") and not _is_vowel(v[-2]):
        third = v[:-1] + "ies"
    else:
        third = v + "s"
    if v.endswith("e") and not v.endswith("ee"):
        ing, past = v[:-1] + "ing", v + "d"
    elif v.endswith("y") and not _is_vowel(v[-2]):
        ing, past = v + "ing", v[:-1] + "ied"
    elif (3 <= len(v) <= 4 and v not in ("open", "edit") and not _is_vowel(v[-1]) and _is_vowel(v[-2])
          and not _is_vowel(v[-3]) and v[-1] not in "wxy"):
        ing, past = v + v[-1] + "ing", v + v[-1] + "ed"
    else:
        ing, past = v + "ing", v + "ed"
    return [v, third, ing, past]


def noun_forms(n):
    if n.endswith(("s", "x", "z", "ch", "sh")):
        return [n, n + "es"]
    if n.endswith("y") and not _is_vowel(n[-2]):
        return [n, n[:-1] + "ies"]
    return [n, n + "s"]


def adjective_forms(a, comparative=True, adverb=True):
    forms = [a]
    stem = a[:-1] if a.endswith("e") else a
    if comparative:
        if a.endswith("y") and not _is_vowel(a[-2]):
            forms += [a[:-1] + "ier", a[:-1] + "iest"]
        elif (len(a) <= 4 and not _is_vowel(a[-1]) and _is_vowel(a[-2]) and not _is_vowel(a[-3])
              and a[-1] not in "wxy"):
            forms += [a + a[-1] + "er", a + a[-1] + "est"]
        else:
            forms += [stem + "er", stem + "est"]
    if adverb:
        if a.endswith("y") and not _is_vowel(a[-2]):
            forms.append(a[:-1] + "ily")
        elif a.endswith("le"):
            forms.append(a[:-1] + "y")
        else:
            forms.append(a + "ly")
    return forms


class Distribution:
    """Items with Zipf-like weights, sampled with random.choices over cumulative weights."""

    def __init__(self, items, weights):
        self.items = items
        self.cum = cumulative(weights)
        self.total = self.cum[-1]

    def sample(self, rng, k):
        return rng.choices(self.items, cum_weights=self.cum, k=k)

    def one(self, rng):
        return self.items[bisect.bisect(self.cum, rng.random() * self.total)]


def pseudo_word(rng, onsets, vowels, codas, endings=None, syllables=(1, 2, 2, 3)):
    n = rng.choice(syllables)
    parts = []
    for i in range(n):
        parts.append(rng.choice(onsets))
        parts.append(rng.choice(vowels))
        if endings is None or i < n - 1:
            parts.append(rng.choice(codas) if codas else "")
    if endings is not None:
        parts.append(rng.choice(endings))
    return "".join(parts)


def english_pseudo_word(rng):
    w = pseudo_word(rng, ONSETS, VOWELS, CODAS, syllables=(1, 2, 2, 2, 3))
    if rng.random() < 0.3:
        w += rng.choice(SUFFIXES)
    if len(w) < 3 or len(w) > 11 or BAD_WORD.search(w):
        return None
    return w


def build_english(rng):
    """Lemmas (lists of forms) in rank order, flattened into ~20k distinct word forms."""
    real = []
    for v in IRREGULAR_VERBS:
        real.append(list(dict.fromkeys(v)))
    for v in REGULAR_VERBS:
        real.append(verb_forms(v))
    for n in NOUNS:
        real.append(noun_forms(n))
    for a in ADJECTIVES:
        real.append(adjective_forms(a, a in COMPARATIVE_ADJ, a in ADVERB_ADJ))
    for p in PROPER_NOUNS:
        real.append([p])
    for w in ACCENTED_LOANWORDS:
        real.append([w])
    rng.shuffle(real)
    known = set(FUNCTION_WORDS)
    for forms in real:
        known.update(forms)

    pseudo = []
    seen_pseudo = set()
    target_forms = 20000
    count_forms = len(known)
    while count_forms < target_forms:
        w = english_pseudo_word(rng)
        if w is None or w in known or w in seen_pseudo:
            continue
        seen_pseudo.add(w)
        r = rng.random()
        if r < 0.5:
            forms = noun_forms(w)
        elif r < 0.8:
            forms = verb_forms(w)
        else:
            forms = adjective_forms(w, rng.random() < 0.4, True)
        forms = [f for f in dict.fromkeys(forms) if f not in known]
        if not forms:
            continue
        known.update(forms)
        count_forms += len(forms)
        pseudo.append(forms)

    lemmas = [[w] for w in FUNCTION_WORDS]
    # Real content words are spread over the first few thousand ranks, one in every eight slots.
    ri, pi = 0, 0
    while ri < len(real) or pi < len(pseudo):
        if ri < len(real) and (pi >= len(pseudo) or rng.random() < 0.2):
            lemmas.append(real[ri])
            ri += 1
        else:
            lemmas.append(pseudo[pi])
            pi += 1
    merged = {}  # a form shared by two lemmas (note, plan, index...) gets both weights
    for lemma_weight, forms in zip(zipf_weights(len(lemmas), 1.0, 2.7), lemmas):
        if len(forms) == 1:
            shares = [1.0]
        else:
            rest = 0.45 / (len(forms) - 1)
            shares = [0.55] + [rest] * (len(forms) - 1)
        for f, s in zip(forms, shares):
            merged[f] = merged.get(f, 0.0) + lemma_weight * s
    words, weights = list(merged), list(merged.values())
    function = set(FUNCTION_WORDS)
    real_forms = set(f for forms in real for f in forms) - function
    real_dist = [(w, x) for w, x in zip(words, weights) if w in real_forms]
    real_dist = Distribution([w for w, _ in real_dist], [x for _, x in real_dist])
    content = [(w, x) for w, x in zip(words, weights) if w not in function]
    content = Distribution([w for w, _ in content], [x for _, x in content])
    return Distribution(words, weights), content, real_dist


def build_word_list(rng, real, onsets, vowels, codas, endings, n_pseudo, s=1.0):
    words = list(dict.fromkeys(real))
    seen = set(words)
    while len(words) < len(real) + n_pseudo:
        w = pseudo_word(rng, onsets, vowels, codas, endings)
        if any(all(c in RU_EL_VOWEL_CHARS for c in w[i:i + 3]) for i in range(len(w) - 2)):
            continue
        if vowels is EL_VOWELS:  # one stress mark per word, on the second vowel of a digraph
            spots = [i for i, c in enumerate(w) if c in EL_TONOS
                     and not (i + 1 < len(w) and w[i:i + 2] in ("ου", "αι", "ει"))]
            if len(spots) > 1:
                i = rng.choice(spots)
                w = w[:i] + EL_TONOS[w[i]] + w[i + 1:]
        if len(w) >= 2 and w not in seen:
            seen.add(w)
            words.append(w)
    return Distribution(words, zipf_weights(len(words), s, 2.7))


def build_cjk(rng):
    chars = list(dict.fromkeys(CJK_CHARS))
    char_dist = Distribution(chars, zipf_weights(len(chars), 0.8, 5.0))
    words, seen = [], set()
    while len(words) < 1500:
        w = "".join(char_dist.sample(rng, rng.choice((1, 2, 2, 2, 3, 3, 4))))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return Distribution(words, zipf_weights(len(words), 0.9, 10.0))


def build_tags(rng):
    tags = list(TAG_WORDS)
    tags += ["project/" + g for g in GREEK_LETTERS]
    tags += ["area/" + a for a in TAG_AREAS]
    tags += ["person/" + p for p in TAG_PEOPLE]
    tags += ["type/" + t for t in TAG_TYPES]
    tags += ["year/%d" % y for y in range(2019, 2027)]
    tags += ["status/" + s for s in STATUSES]
    tags += ["project/%s/%s" % (g, s) for g in GREEK_LETTERS[:4] for s in ("notes", "design", "ops")]
    seen = set(tags)
    while len(tags) < 300:
        w = english_pseudo_word(rng)
        if w and len(w) >= 4 and w not in seen:
            seen.add(w)
            tags.append(w)
    tags = list(dict.fromkeys(tags))
    rng.shuffle(tags)
    # Common tags first so the head of the Zipf curve is made of plausible tags.
    head = ["todo", "reading", "ideas", "work", "project/alpha", "meeting", "journal", "to-read"]
    tags = head + [t for t in tags if t not in head]
    return Distribution(tags, zipf_weights(len(tags), 1.1, 1.5))


class Vocabulary:
    def __init__(self):
        rng = random.Random(VOCAB_SEED)
        self.english, self.content, self.real = build_english(rng)
        self.russian = build_word_list(rng, RUSSIAN_WORDS, RU_ONSETS, RU_VOWELS, [""], RU_ENDINGS, 2500)
        self.greek = build_word_list(rng, GREEK_WORDS, EL_ONSETS, EL_VOWELS, [""], EL_ENDINGS, 1500)
        self.french = Distribution(list(dict.fromkeys(FRENCH_WORDS)),
                                   zipf_weights(len(dict.fromkeys(FRENCH_WORDS)), 0.9, 2.7))
        self.portuguese = Distribution(list(dict.fromkeys(PORTUGUESE_WORDS)),
                                       zipf_weights(len(dict.fromkeys(PORTUGUESE_WORDS)), 0.9, 2.7))
        self.cjk = build_cjk(rng)
        self.tags = build_tags(rng)
        self.folder_names = FOLDER_NAMES


# --------------------------------------------------------------------------------------------
# Text generation
# --------------------------------------------------------------------------------------------

def insert_token(rng, sentence, token):
    """Put an inline token (link, tag, embed) into a sentence without recapitalising it."""
    r = rng.random()
    if r < 0.5:
        return sentence[:-1] + " " + token + sentence[-1]
    k = sentence.find(" ", len(sentence) // 2)
    if k < 0 or sentence.count("[", 0, k) != sentence.count("]", 0, k):  # never inside a link
        return sentence[:-1] + " " + token + sentence[-1]
    return sentence[:k] + " " + token + sentence[k:]


class TextGen:
    def __init__(self, vocab, rng):
        self.v = vocab
        self.rng = rng

    # English ------------------------------------------------------------------------------
    def sentences(self, n_words, dist=None):
        rng = self.rng
        ws = (dist or self.v.english).sample(rng, n_words)
        out = []
        i = 0
        rand = rng.random
        while i < n_words:
            length = 4 + int(rand() * 15)
            seg = ws[i:i + length]
            i += length
            if not seg:
                break
            seg[0] = seg[0][:1].upper() + seg[0][1:]
            if len(seg) > 8 and rand() < 0.45:
                seg[len(seg) // 2] += ","
            r = rand()
            end = "." if r < 0.88 else ("?" if r < 0.95 else "!")
            out.append(" ".join(seg) + end)
        return out

    def phrase(self, lo, hi, capital=True):
        """Title-like words: 60% real English words, the rest from the whole content vocabulary."""
        rng = self.rng
        real, content = self.v.real, self.v.content
        ws = [(real if rng.random() < 0.6 else content).one(rng) for _ in range(rng.randint(lo, hi))]
        s = " ".join(ws)
        return s[:1].upper() + s[1:] if capital else s

    def paragraph(self, tokens):
        rng = self.rng
        sents = self.sentences(rng.randint(20, 110))
        while tokens and rng.random() < 0.6:
            j = int(rng.random() * len(sents))
            sents[j] = insert_token(rng, sents[j], tokens.pop())
        return " ".join(sents)

    def bullet_list(self, tokens):
        rng = self.rng
        n = rng.randint(3, 8)
        kind = rng.random()
        lines = []
        for i in range(n):
            item = " ".join(self.sentences(rng.randint(3, 14)))
            if tokens and rng.random() < 0.3:
                item = insert_token(rng, item, tokens.pop())
            if kind < 0.55:
                prefix = "  - " if i > 0 and rng.random() < 0.15 else "- "
            elif kind < 0.75:
                prefix = "- [x] " if rng.random() < 0.4 else "- [ ] "
            elif kind < 0.9:
                prefix = "%d. " % (i + 1)
            else:
                prefix = "* "
            lines.append(prefix + item)
        return "\n".join(lines)

    def code_fence(self):
        rng = self.rng
        lang = rng.choice(CODE_LANGS)
        n = rng.randint(3, 15)
        w = lambda: self.v.content.one(rng).replace("'", "")
        lines = []
        if lang == "c":
            lines.append("#include <stdio.h>")
            lines.append("#define %s_MAX %d" % (w().upper(), rng.randint(1, 4096)))
        for _ in range(n):
            r = rng.random()
            if lang in ("python", ""):
                line = ("def %s_%s(%s):" % (w(), w(), w())) if r < 0.2 else (
                    "    return %s(%s) + %d  # %s" % (w(), w(), rng.randint(0, 99), w()))
            elif lang == "swift":
                line = ("func %s(_ %s: Int) -> String {" % (w(), w())) if r < 0.2 else (
                    "    let %s = %s.%s(%d)" % (w(), w(), w(), rng.randint(0, 99)))
            elif lang == "sh":
                line = 'git commit -m "%s %s"' % (w(), w()) if r < 0.3 else (
                    "grep -rn %s ./%s | sort | head -%d" % (w(), w(), rng.randint(1, 50)))
            elif lang == "json":
                line = '  "%s": "%s %s",' % (w(), w(), w())
            elif lang == "yaml":
                line = "%s: %s  # #%s" % (w(), w(), self.v.tags.one(rng))
            elif lang == "sql":
                line = "SELECT %s FROM %s WHERE %s = %d;" % (w(), w(), w(), rng.randint(0, 999))
            else:
                line = "    %s(%s);" % (w(), w())
            lines.append(line)
        return "```%s\n%s\n```" % (lang, "\n".join(lines))

    def quote(self):
        return "> " + " ".join(self.sentences(self.rng.randint(8, 40)))

    def table(self):
        rng = self.rng
        cols = rng.randint(2, 4)
        head = "| " + " | ".join(self.phrase(1, 2) for _ in range(cols)) + " |"
        sep = "|" + "|".join("---" for _ in range(cols)) + "|"
        rows = ["| " + " | ".join(self.phrase(1, 3, False) if rng.random() < 0.7 else str(rng.randint(1, 999))
                                  for _ in range(cols)) + " |" for _ in range(rng.randint(2, 6))]
        return "\n".join([head, sep] + rows)

    def heading(self):
        return "#" * self.rng.choice((2, 2, 2, 3, 3, 4)) + " " + self.phrase(1, 5)

    # Other languages ----------------------------------------------------------------------
    def foreign_paragraph(self, lang, tokens):
        rng = self.rng
        if lang in ("zh", "ja"):
            sents = [self.cjk_sentence(lang) for _ in range(rng.randint(2, 8))]
            sep = ""
        else:
            dist = {"ru": self.v.russian, "el": self.v.greek, "fr": self.v.french,
                    "pt": self.v.portuguese}[lang]
            sents = self.sentences(rng.randint(15, 90), dist)
            sep = " "
        while tokens and rng.random() < 0.5:
            j = int(rng.random() * len(sents))
            if sep:
                sents[j] = insert_token(rng, sents[j], tokens.pop())
            else:  # CJK: no spaces between sentences, so surround the token with spaces
                sents[j] = sents[j] + " " + tokens.pop() + " "
        return sep.join(sents)

    def cjk_sentence(self, lang):
        rng = self.rng
        n = rng.randint(3, 10)
        words = self.v.cjk.sample(rng, n)
        if lang == "zh":
            parts = []
            for i, w in enumerate(words):
                parts.append(w)
                if i < n - 1 and rng.random() < 0.15:
                    parts.append("，")
            parts.append("。" if rng.random() < 0.9 else "？")
            return "".join(parts)
        parts = []
        for i, w in enumerate(words):
            parts.append(rng.choice(KATAKANA) if rng.random() < 0.15 else w)
            if i < n - 1:
                parts.append(rng.choice(HIRAGANA_PARTICLES))
        parts.append(rng.choice(JA_ENDINGS))
        return "".join(parts)

    def foreign_title(self, lang):
        rng = self.rng
        if lang == "zh":
            return "".join(self.v.cjk.sample(rng, rng.randint(2, 4)))
        if lang == "ja":
            return "".join(self.v.cjk.sample(rng, rng.randint(1, 3))) + rng.choice(("の", "と")) + \
                rng.choice(KATAKANA)
        dist = {"ru": self.v.russian, "el": self.v.greek, "fr": self.v.french, "pt": self.v.portuguese}[lang]
        s = " ".join(dist.sample(rng, rng.randint(1, 4)))
        return s[:1].upper() + s[1:]


# --------------------------------------------------------------------------------------------
# Vault structure
# --------------------------------------------------------------------------------------------

def clean_name(s):
    s = FORBIDDEN_NAME_CHARS.sub("", s)
    s = " ".join(s.split())
    s = s.strip(" .")
    b = s.encode("utf-8")
    if len(b) > 110:
        s = b[:110].decode("utf-8", "ignore").rstrip(" .")
    return s or "Untitled"


def iso_time(ts, offset):
    sign = 1 if offset[0] == "+" else -1
    minutes = sign * (int(offset[1:3]) * 60 + int(offset[4:6]))
    t = time.gmtime(ts + minutes * 60)
    return "%04d-%02d-%02dT%02d:%02d:%02d%s" % (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min,
                                                t.tm_sec, offset)


def iso_date(ts):
    t = time.gmtime(ts)
    return "%04d-%02d-%02d" % (t.tm_year, t.tm_mon, t.tm_mday)


class Note:
    __slots__ = ("folder", "stem", "title", "lang", "created", "size", "has_fm", "index")


def build_folders(rng, vocab, n_notes):
    """Returns [(folder_path, note_count)]; '' is the vault root."""
    counts = []
    root_count = min(n_notes, rng.randint(3, 8))
    remaining = n_notes - root_count
    while remaining > 0:
        c = min(remaining, rng.randint(10, 50))
        counts.append(c)
        remaining -= c
    n_folders = len(counts)
    n_top = max(1, min(30, n_folders, round(n_folders ** 0.5 * 0.6)))
    children = {"": set()}
    depth = {"": 0}
    by_depth = {1: [], 2: [], 3: []}
    folders = []
    names = vocab.folder_names
    top_names = names[:50]

    def new_name(parent, level):
        for attempt in range(1000):
            r = rng.random()
            if level == 1 and attempt < 50:
                name = rng.choice(top_names)
            elif r < 0.5:
                name = rng.choice(names)
            elif r < 0.65:
                name = str(rng.randint(2019, 2026))
            elif r < 0.72:
                name = "Q%d %d" % (rng.randint(1, 4), rng.randint(2019, 2026))
            elif r < 0.9:
                name = "Project " + vocab.content.one(rng).capitalize()
            else:
                name = vocab.real.one(rng).capitalize() + " " + vocab.content.one(rng)
            name = clean_name(name)
            if name.casefold() == parent.rsplit("/", 1)[-1].casefold():
                continue
            if name.casefold() not in children[parent]:
                children[parent].add(name.casefold())
                return name
        raise RuntimeError("could not name a folder")

    for i in range(n_folders):
        if i < n_top:
            parent = ""
        else:
            want = rng.choices((2, 3, 4), weights=(0.35, 0.4, 0.25))[0]
            while want > 2 and not by_depth[want - 1]:
                want -= 1
            candidates = by_depth[want - 1]
            parent = candidates[int(rng.random() * len(candidates))]
        level = depth[parent] + 1
        path = (parent + "/" if parent else "") + new_name(parent, level)
        children[path] = set()
        depth[path] = level
        if level < 4:
            by_depth[level].append(path)
        folders.append(path)
    return [("", root_count)] + list(zip(folders, counts))


def make_title(gen, rng):
    r = rng.random()
    if r < 0.08:
        ts = rng.randint(CREATED_FROM, CREATED_TO)
        return rng.choice(("", "Meeting ", "Standup ", "Journal ", "Call with %s " % rng.choice(PROPER_NOUNS[8:20]))) \
            + iso_date(ts)
    if r < 0.14:
        return "How to %s the %s?" % (rng.choice(REGULAR_VERBS), gen.phrase(1, 2, False))
    if r < 0.18:
        return "%s: %s" % (gen.phrase(1, 2), gen.phrase(1, 3, False))
    if r < 0.20:
        return 'Notes on "%s"' % gen.phrase(1, 2, False)
    if r < 0.21:
        return "%s / %s" % (gen.phrase(1, 2), gen.phrase(1, 2, False))
    if r < 0.24:
        return "%s notes" % rng.choice(("Running", "Reading", "Meeting", "Planning", "Cooking", "Writing"))\
            + " " + gen.phrase(1, 2, False)
    if r < 0.27:
        return "%s (draft)" % gen.phrase(1, 3)
    return gen.phrase(1, 5)


def plan_notes(rng, vocab, n_notes):
    gen = TextGen(vocab, rng)
    notes = []
    used_in_folder = {}
    for folder, count in build_folders(rng, vocab, n_notes):
        used = used_in_folder.setdefault(folder, set())
        for _ in range(count):
            n = Note()
            n.index = len(notes)
            n.folder = folder
            r = rng.random()
            n.lang = "en"
            if r < 0.05:
                x = rng.random()
                for lang, p in NON_LATIN_LANGS:
                    x -= p
                    if x < 0:
                        n.lang = lang
                        break
                else:
                    n.lang = NON_LATIN_LANGS[-1][0]
            if n.lang == "en" or rng.random() < 0.25:
                title = make_title(gen, rng)
            else:
                title = gen.foreign_title(n.lang)
            stem = clean_name(title)
            base, k = stem, 2
            while stem.casefold() in used:
                stem = "%s %d" % (base, k)
                k += 1
            used.add(stem.casefold())
            n.stem = stem
            n.title = title
            n.has_fm = rng.random() < 0.85
            n.created = rng.randint(CREATED_FROM, CREATED_TO)
            n.size = max(SIZE_MIN, min(SIZE_CAP, int(rng.lognormvariate(0.0, SIZE_SIGMA) * SIZE_MEDIAN)))
            notes.append(n)
    return notes


def note_path(n):
    return (n.folder + "/" if n.folder else "") + n.stem + ".md"


# --------------------------------------------------------------------------------------------
# Note rendering
# --------------------------------------------------------------------------------------------

def yaml_scalar(s, rng):
    needs = (s[:1] in "!&*[]{}|>@`\"'%#?-,") or ": " in s or s.endswith(":") or " #" in s \
        or s.lower() in ("yes", "no", "true", "false", "null", "on", "off", "~") or s != s.strip() \
        or re.fullmatch(r"[0-9][0-9.:+ TZ-]*", s) is not None
    if needs or rng.random() < 0.04:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def yaml_flow_item(s):
    if any(c in s for c in ",[]{}:#\"'") or s[:1] in "-?!&*|>@`%":
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def render_front_matter(rng, vocab, gen, n, tags):
    lines = []
    offset = rng.choice(TZ_OFFSETS)
    id_line = "id: " + str(uuid.UUID(int=rng.getrandbits(128), version=4))
    title_line = "title: " + yaml_scalar(n.title, rng)
    if rng.random() < 0.9:
        lines += [id_line, title_line]
    else:
        lines += [title_line, id_line]
    r = rng.random()
    if r < 0.92:
        lines.append("created: " + iso_time(n.created, offset))
    elif r < 0.97:
        lines.append("date: " + iso_date(n.created))
    modified = None
    if rng.random() < 0.3:
        modified = min(CREATED_TO + 20 * 86400, n.created + int(rng.expovariate(1 / (60 * 86400))))
        lines.append(rng.choice(("modified: ", "modified: ", "updated: ")) + iso_time(modified, offset))
    if tags or rng.random() < 0.05:
        r = rng.random()
        if not tags:
            lines.append("tags: []" if rng.random() < 0.5 else "tags:")
        elif r < 0.42:
            indent = "  - " if rng.random() < 0.85 else "- "
            lines.append("tags:")
            lines += [indent + yaml_flow_item(t) for t in tags]
        elif r < 0.72:
            lines.append("tags: [" + ", ".join(yaml_flow_item(t) for t in tags) + "]")
        elif r < 0.92:
            lines.append("tags: " + ", ".join(tags))
        elif r < 0.97:
            lines.append("tags: " + " ".join(tags))
        else:
            lines.append("tags: " + tags[0])
    if rng.random() < 0.15:
        aliases = [gen.phrase(1, 3) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            lines.append("aliases: [" + ", ".join(yaml_flow_item(a) for a in aliases) + "]")
        else:
            lines.append("aliases:")
            lines += ["  - " + yaml_scalar(a, rng) for a in aliases]
    if rng.random() < 0.2:
        lines.append("status: " + rng.choice(STATUSES))
    if rng.random() < 0.08:
        lines.append("rating: %d" % rng.randint(1, 5))
    if rng.random() < 0.05:
        lines.append("source: https://example.com/%s/%d" % (vocab.content.one(rng), rng.randint(1, 9999)))
    if rng.random() < 0.03:
        lines.append("publish: " + rng.choice(("true", "false")))
    if rng.random() < 0.02:
        lines.insert(rng.randint(1, len(lines)), "# reviewed " + iso_date(n.created + 86400 * 30))
    return "---\n" + "\n".join(lines) + "\n---\n", modified


def md_link_path(src_folder, target):
    rel = posixpath.relpath(target, src_folder or ".")
    return rel.replace("%", "%25").replace(" ", "%20").replace("(", "%28").replace(")", "%29")


class Renderer:
    def __init__(self, vocab, notes, seed):
        self.vocab = vocab
        self.notes = notes
        self.seed = seed
        stem_count = {}
        for n in notes:
            stem_count[n.stem] = stem_count.get(n.stem, 0) + 1
        self.ambiguous = {s for s, c in stem_count.items() if c > 1}
        self.stems = set(stem_count)
        self.hubs = max(1, len(notes) // 50)

    def link_token(self, rng, gen, n):
        notes = self.notes
        if rng.random() < 0.03:  # dangling
            while True:
                t = clean_name(gen.phrase(2, 4))
                if t not in self.stems:
                    return "[[%s]]" % t
        if rng.random() < 0.3:
            target = notes[int(rng.random() * self.hubs)]
        else:
            target = notes[int(rng.random() * len(notes))]
        if target is n and len(notes) > 1:
            target = notes[(n.index + 1) % len(notes)]
        r = rng.random()
        if r < 0.15:
            label = gen.phrase(1, 3, False)
            return "[%s](%s)" % (label, md_link_path(n.folder, note_path(target)))
        name = target.stem
        if name in self.ambiguous or r < 0.2:
            name = note_path(target)[:-3]
        if r < 0.35:
            return "[[%s|%s]]" % (name, gen.phrase(1, 3, False))
        if r < 0.45:
            return "[[%s#%s]]" % (name, gen.phrase(1, 3))
        return "[[%s]]" % name

    def render(self, n):
        vocab = self.vocab
        rng = random.Random("%s:%d:%d" % (FORMAT_VERSION, self.seed, n.index))
        gen = TextGen(vocab, rng)
        tags = []
        n_tags = rng.choice((0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6))
        while len(tags) < n_tags:
            t = vocab.tags.one(rng)
            if t not in tags:
                tags.append(t)
        parts = []
        modified = None
        if n.has_fm:
            fm, modified = render_front_matter(rng, vocab, gen, n, tags)
            parts.append(fm)
        head_size = len(parts[0].encode("utf-8")) if parts else 0

        tokens = [self.link_token(rng, gen, n) for _ in range(rng.randint(1, min(8, 1 + n.size // 700)))]
        if rng.random() < 0.4:
            tokens += ["#" + vocab.tags.one(rng) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.06:
            for _ in range(rng.randint(1, 2)):
                if rng.random() < 0.8:
                    tokens.append("![[image-%d.%s]]" % (rng.randint(1, 999), rng.choice(("png", "jpg", "webp"))))
                else:
                    tokens.append("![%s](photo-%d.jpg)" % (gen.phrase(1, 2, False), rng.randint(1, 999)))
        rng.shuffle(tokens)

        blocks = []
        if (not n.has_fm and rng.random() < 0.6) or (n.has_fm and rng.random() < 0.25):
            blocks.append("# " + n.title)
        target = n.size - head_size
        foreign = n.lang != "en"
        measure = (lambda s: len(s.encode("utf-8"))) if foreign else len
        size = sum(measure(b) + 2 for b in blocks)
        rand = rng.random
        while size < target:
            if foreign and rand() < 0.8:
                b = gen.foreign_paragraph(n.lang, tokens)
                if rand() < 0.1:
                    b = "## " + gen.foreign_title(n.lang) + "\n\n" + b
            else:
                r = rand()
                if r < 0.58:
                    b = gen.paragraph(tokens)
                elif r < 0.72:
                    b = gen.heading()
                elif r < 0.88:
                    b = gen.bullet_list(tokens)
                elif r < 0.92:
                    b = gen.code_fence()
                elif r < 0.97:
                    b = gen.quote()
                else:
                    b = gen.table()
            blocks.append(b)
            size += measure(b) + 2
        if tokens:
            blocks.append(rng.choice(("## Related", "See also:", "Links:")) + "\n" +
                          "\n".join("- " + t for t in tokens))
        text = "".join(parts) + ("\n" if parts and rand() < 0.5 else "") + "\n\n".join(blocks) + "\n"
        r = rand()
        if r < 0.01:
            text = text.replace("\n", "\r\n")
        if 0.01 <= r < 0.014:
            text = "\ufeff" + text
        mtime = modified if modified is not None else n.created + int(rng.expovariate(1 / (7 * 86400)))
        return text.encode("utf-8"), min(mtime, MTIME_CAP)


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------

def generate(out_dir, n_notes, seed):
    if os.path.exists(out_dir) and os.listdir(out_dir):
        sys.exit("generate_vault: %s exists and is not empty" % out_dir)
    start = time.perf_counter()
    vocab = Vocabulary()
    rng = random.Random("%s:%d:plan" % (FORMAT_VERSION, seed))
    notes = plan_notes(rng, vocab, n_notes)
    renderer = Renderer(vocab, notes, seed)
    os.makedirs(out_dir, exist_ok=True)
    made = set()
    total = 0
    sizes = []
    for n in notes:
        if n.folder not in made:
            os.makedirs(os.path.join(out_dir, n.folder), exist_ok=True)
            made.add(n.folder)
        data, mtime = renderer.render(n)
        path = os.path.join(out_dir, note_path(n))
        with open(path, "xb") as f:
            f.write(data)
        os.utime(path, (mtime, mtime))
        total += len(data)
        sizes.append(len(data))
    sizes.sort()
    elapsed = time.perf_counter() - start
    print("notes: %d  folders: %d  total bytes: %d (%.1f MB)  median: %d  mean: %d  max: %d  seconds: %.1f"
          % (len(notes), len(made), total, total / 1e6, sizes[len(sizes) // 2], total // max(1, len(sizes)),
             sizes[-1], elapsed), file=sys.stderr)
    print(total)


def list_notes(vault):
    out = []
    for dirpath, dirnames, filenames in os.walk(vault):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in sorted(filenames):
            if f.endswith((".md", ".markdown")) and not f.startswith("."):
                out.append(os.path.relpath(os.path.join(dirpath, f), vault))
    out.sort()
    return out


TAG_BLOCK_ITEM = re.compile(r"^(\s*-\s+)(.*?)(\s*)$")


def change_tag(rng, vocab, text, nl):
    """Replaces the last front-matter tag (or adds one). Returns (text, changed?)."""
    if not text.startswith("---" + nl):
        return text, False
    end = text.find(nl + "---" + nl, 3)
    if end < 0:
        return text, False
    lines = text[:end].split(nl)

    def fresh(existing):
        existing = {x.strip().strip("\"'").lstrip("#") for x in existing}
        while True:
            t = vocab.tags.one(rng)
            if t not in existing:
                return t

    for i, line in enumerate(lines):
        if not line.startswith("tags:"):
            continue
        value = line[5:].strip()
        if value == "":
            j = i + 1
            while j < len(lines) and TAG_BLOCK_ITEM.match(lines[j]):
                j += 1
            new_tag = fresh(TAG_BLOCK_ITEM.match(x).group(2) for x in lines[i + 1:j])
            if j > i + 1:
                m = TAG_BLOCK_ITEM.match(lines[j - 1])
                lines[j - 1] = m.group(1) + yaml_flow_item(new_tag)
            else:
                lines.insert(i + 1, "  - " + yaml_flow_item(new_tag))
        elif value.startswith("[") and value.endswith("]"):
            items = [x.strip() for x in value[1:-1].split(",") if x.strip()]
            items = items[:-1] + [yaml_flow_item(fresh(items))]
            lines[i] = "tags: [" + ", ".join(items) + "]"
        else:
            sep = ", " if "," in value else " "
            items = [x.strip() for x in value.replace(",", " ").split() if x.strip()]
            items = items[:-1] + [fresh(items)]
            lines[i] = "tags: " + sep.join(items)
        return nl.join(lines) + text[end:], True
    lines.append("tags: [" + yaml_flow_item(fresh([])) + "]")
    return nl.join(lines) + text[end:], True


def edit(vault, n_edits, seed):
    vocab = Vocabulary()
    paths = list_notes(vault)
    if not paths:
        sys.exit("generate_vault: no notes in %s" % vault)
    rng = random.Random("%s:%d:edit" % (FORMAT_VERSION, seed))
    chosen = sorted(rng.sample(paths, min(n_edits, len(paths))))
    gen = TextGen(vocab, rng)
    for rel in chosen:
        full = os.path.join(vault, rel)
        with open(full, "rb") as f:
            raw = f.read()
        text = raw.decode("utf-8", "surrogateescape")
        nl = "\r\n" if "\r\n" in text else "\n"
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        text, changed = change_tag(rng, vocab, text[len(bom):], nl)
        text = bom + text
        para = gen.paragraph([])
        if not changed:
            para = insert_token(rng, para, "#" + vocab.tags.one(rng))
        if not text.endswith(nl):
            text += nl
        text += nl + para + nl
        with open(full, "wb") as f:
            f.write(text.encode("utf-8", "surrogateescape"))
    print("edited %d notes" % len(chosen), file=sys.stderr)
    try:
        sys.stdout.write("".join(rel + "\n" for rel in chosen))
        sys.stdout.flush()
    except BrokenPipeError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--notes", type=int, default=10000, help="number of notes to generate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edit", type=int, metavar="N", help="edit N notes of an existing vault in place")
    ap.add_argument("dir", metavar="OUT_DIR|VAULT")
    a = ap.parse_args()
    if a.edit is not None:
        edit(a.dir, a.edit, a.seed)
    else:
        generate(a.dir, a.notes, a.seed)


if __name__ == "__main__":
    main()
