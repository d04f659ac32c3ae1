import { LANGUAGES, type Lang } from '../labelling/languages.ts';
import type { BatteryCategory } from './categories.ts';
import { ELEMENT_NAME_PATHS, elementNameKey, FIELD_NAME_KEYS, VALUE_NAME_KEYS, type LanguageNames, type NameTable, type QualifiedNameKey } from './texts/names.ts';
import * as bg from './texts/names/bg.ts';
import * as cs from './texts/names/cs.ts';
import * as da from './texts/names/da.ts';
import * as de from './texts/names/de.ts';
import * as el from './texts/names/el.ts';
import * as en from './texts/names/en.ts';
import * as es from './texts/names/es.ts';
import * as et from './texts/names/et.ts';
import * as fi from './texts/names/fi.ts';
import * as fr from './texts/names/fr.ts';
import * as ga from './texts/names/ga.ts';
import * as hr from './texts/names/hr.ts';
import * as hu from './texts/names/hu.ts';
import * as it from './texts/names/it.ts';
import * as lt from './texts/names/lt.ts';
import * as lv from './texts/names/lv.ts';
import * as mt from './texts/names/mt.ts';
import * as nl from './texts/names/nl.ts';
import * as pl from './texts/names/pl.ts';
import * as pt from './texts/names/pt.ts';
import * as ro from './texts/names/ro.ts';
import * as sk from './texts/names/sk.ts';
import * as sl from './texts/names/sl.ts';
import * as sv from './texts/names/sv.ts';

/**
 * The words of the public battery passport page (functions/resolver/page/battery.ts,
 * docs/battery.md#the-public-page-json-and-links): its own words, and the names of the public
 * elements, their members and their values, all in the 24 official EU languages (the names one file
 * a language, texts/names/). A name missing in the page's language is shown in English, marked
 * `lang="en"`. Every word but the English is our own translation, not yet read by a native speaker,
 * except the names a language's file lists as read in the regulation's own text in that language
 * (`confirmed`, with the source; nameSource): docs/battery.md#what-is-unconfirmed. Kept apart from
 * the e-label's texts (lib/domain/labelling/texts/); imports only constants, types and its own
 * name files.
 */

export const PAGE_KEYS = [
  'kicker',
  'intro',
  'yes',
  'no',
  'aspect_generalProductInformation',
  'aspect_carbonFootprint',
  'aspect_supplyChainDueDiligence',
  'aspect_materialComposition',
  'aspect_circularity',
  'aspect_labeling',
  'aspect_performanceAndDurability',
  'category_ev',
  'category_lmt',
  'category_industrial',
  'category_stationary',
  'predecessor',
  'successor',
  // The page of a recycled battery, whose passport has ceased (docs/battery.md#a-batterys-life).
  'recycledTitle',
  'recycledHeading',
  'recycledBody',
  // The model's page (a GTIN scanned without a serial) says it is no battery's passport (docs/battery.md#the-public-page-json-and-links); unconfirmed translations, as every word here.
  'modelNote',
  // The carbon footprint's functional unit in words (Regulation (EU) 2023/1542 Art. 7(1)(d), read in German), and a performance class shown as voluntary (Art. 7(2)).
  'functionalUnit',
  'performanceClassNote',
  // The link for market surveillance authorities to the authority view, when the page is given one (docs/battery.md#the-public-page-json-and-links).
  'inspectLink',
] as const;
export type PageKey = (typeof PAGE_KEYS)[number];

type Words = readonly [
  kicker: string,
  intro: string,
  yes: string,
  no: string,
  generalProductInformation: string,
  carbonFootprint: string,
  supplyChainDueDiligence: string,
  materialComposition: string,
  circularity: string,
  labeling: string,
  performanceAndDurability: string,
  ev: string,
  lmt: string,
  industrial: string,
  stationary: string,
  predecessor: string,
  successor: string,
  recycledTitle: string,
  recycledHeading: string,
  recycledBody: string,
  modelNote: string,
  functionalUnit: string,
  performanceClassNote: string,
  inspectLink: string,
];

/** The page's own words, in the order of PAGE_KEYS. */
const WORDS: Readonly<Record<Lang, Words>> = {
  bg: ['Паспорт на батерията', 'Публична информация от паспорта на батерията (Регламент (ЕС) 2023/1542)', 'Да', 'Не', 'Обща информация', 'Въглероден отпечатък', 'Надлежна проверка на веригата на доставки', 'Състав на материалите', 'Кръговост', 'Етикети и съответствие', 'Експлоатационни показатели и дълготрайност', 'Батерия за електрическо превозно средство', 'Батерия за ЛПС (леко превозно средство)', 'Промишлена батерия', 'Стационарна система за съхранение на енергия в батерии', 'Паспорт на първоначалната батерия', 'Паспорт на тази батерия в нейния втори живот', 'Батерията е рециклирана', 'Тази батерия е рециклирана', 'Паспортът на батерията е престанал да съществува (Регламент (ЕС) 2023/1542, член 77, параграф 8): батерията е достигнала края на жизнения си цикъл и е рециклирана. Производителят не я е изтеглил.', 'Информация за модела: тази страница описва модела батерия, а не паспорта на отделна батерия. Паспортът на всяка батерия се отваря от кода върху самата батерия.', 'Функционална единица: kg CO₂ еквивалент на kWh от общата енергия, която батерийната система доставя през експлоатационния си живот (Регламент (ЕС) 2023/1542, член 7, параграф 1, буква г)).', 'Доброволно: все още няма регулаторен клас (Регламент (ЕС) 2023/1542, член 7, параграф 2).', 'Органи за надзор на пазара: влезте в изгледа за органите'],
  cs: ['Pas baterie', 'Veřejné informace z pasu baterie (nařízení (EU) 2023/1542)', 'Ano', 'Ne', 'Obecné informace', 'Uhlíková stopa', 'Náležitá péče v dodavatelském řetězci', 'Materiálové složení', 'Oběhovost', 'Označení a shoda', 'Výkonnost a životnost', 'Baterie pro elektromobily', 'Baterie LMT (lehký dopravní prostředek)', 'Průmyslová baterie', 'Stacionární bateriový systém pro ukládání energie', 'Pas původní baterie', 'Pas této baterie v jejím druhém životě', 'Baterie recyklována', 'Tato baterie byla recyklována', 'Pas baterie přestal existovat (nařízení (EU) 2023/1542, čl. 77 odst. 8): baterie dosáhla konce své životnosti a byla recyklována. Výrobce ji nestáhl.', 'Informace o modelu: tato stránka popisuje model baterie, nikoli pas jednotlivé baterie. Pas každé baterie se otevírá z kódu na dané baterii.', 'Funkční jednotka: kg ekvivalentu CO₂ na kWh celkové energie, kterou bateriový systém dodá za dobu své životnosti (nařízení (EU) 2023/1542, čl. 7 odst. 1 písm. d)).', 'Dobrovolné: regulační třída zatím neexistuje (nařízení (EU) 2023/1542, čl. 7 odst. 2).', 'Orgány dozoru nad trhem: přihlaste se do zobrazení pro orgány'],
  da: ['Batteripas', 'Offentlige oplysninger fra batteripasset (forordning (EU) 2023/1542)', 'Ja', 'Nej', 'Generelle oplysninger', 'CO₂-fodaftryk', 'Due diligence i forsyningskæden', 'Materialesammensætning', 'Cirkularitet', 'Mærkning og overensstemmelse', 'Ydeevne og holdbarhed', 'Batteri til elkøretøjer', 'LMT-batteri (lette transportmidler)', 'Industribatteri', 'Stationært batterienergilagringssystem', 'Pas for det oprindelige batteri', 'Pas for dette batteri i dets andet liv', 'Batteriet er genanvendt', 'Dette batteri er blevet genanvendt', 'Batteripasset er ophørt med at eksistere (forordning (EU) 2023/1542, artikel 77, stk. 8): batteriet nåede slutningen af sin levetid og blev genanvendt. Producenten har ikke trukket det tilbage.', 'Modeloplysninger: denne side beskriver batterimodellen, ikke passet for et enkelt batteri. Hvert batteris pas åbnes fra koden på det pågældende batteri.', 'Funktionel enhed: kg CO₂-ækvivalent pr. kWh af den samlede energi, som batterisystemet leverer i sin levetid (forordning (EU) 2023/1542, artikel 7, stk. 1, litra d)).', 'Frivillig: der findes endnu ingen lovbestemt klasse (forordning (EU) 2023/1542, artikel 7, stk. 2).', 'Markedsovervågningsmyndigheder: log ind på myndighedsvisningen'],
  de: ['Batteriepass', 'Öffentliche Angaben des Batteriepasses (Verordnung (EU) 2023/1542)', 'Ja', 'Nein', 'Allgemeine Angaben', 'CO₂-Fußabdruck', 'Sorgfaltspflichten in der Lieferkette', 'Materialzusammensetzung', 'Kreislaufwirtschaft', 'Kennzeichnung und Konformität', 'Leistung und Haltbarkeit', 'Elektrofahrzeugbatterie', 'LV-Batterie (leichtes Verkehrsmittel)', 'Industriebatterie', 'Stationäres Batterie-Energiespeichersystem', 'Pass der ursprünglichen Batterie', 'Pass dieser Batterie in ihrem zweiten Leben', 'Batterie recycelt', 'Diese Batterie wurde recycelt', 'Ihr Batteriepass hat aufgehört zu existieren (Verordnung (EU) 2023/1542, Artikel 77 Absatz 8): Die Batterie hat das Ende ihrer Lebensdauer erreicht und wurde recycelt. Der Hersteller hat sie nicht zurückgezogen.', 'Angaben zum Modell: Diese Seite beschreibt das Batteriemodell, nicht den Pass einer einzelnen Batterie. Den Pass jeder Batterie öffnet der Code auf dieser Batterie.', 'Funktionelle Einheit: kg Kohlendioxid-Äquivalent pro eine kWh der Gesamtenergie, die das Batteriesystem während seiner Lebensdauer liefert (Verordnung (EU) 2023/1542, Artikel 7 Absatz 1 Buchstabe d).', 'Freiwillig: Eine gesetzliche Klasse gibt es noch nicht (Verordnung (EU) 2023/1542, Artikel 7 Absatz 2).', 'Marktüberwachungsbehörden: Anmeldung zur Behördenansicht'],
  el: ['Διαβατήριο μπαταρίας', 'Δημόσιες πληροφορίες του διαβατηρίου μπαταρίας (Κανονισμός (ΕΕ) 2023/1542)', 'Ναι', 'Όχι', 'Γενικές πληροφορίες', 'Αποτύπωμα άνθρακα', 'Δέουσα επιμέλεια στην αλυσίδα εφοδιασμού', 'Σύνθεση υλικών', 'Κυκλικότητα', 'Σήμανση και συμμόρφωση', 'Επιδόσεις και ανθεκτικότητα', 'Μπαταρία ηλεκτρικού οχήματος', 'Μπαταρία ΕΜΜ (ελαφρύ μέσο μεταφοράς)', 'Βιομηχανική μπαταρία', 'Στατικό σύστημα αποθήκευσης ενέργειας σε μπαταρίες', 'Διαβατήριο της αρχικής μπαταρίας', 'Διαβατήριο αυτής της μπαταρίας στη δεύτερη ζωή της', 'Η μπαταρία ανακυκλώθηκε', 'Αυτή η μπαταρία έχει ανακυκλωθεί', 'Το διαβατήριο της μπαταρίας έπαψε να υπάρχει (Κανονισμός (ΕΕ) 2023/1542, άρθρο 77 παράγραφος 8): η μπαταρία έφτασε στο τέλος του κύκλου ζωής της και ανακυκλώθηκε. Ο παραγωγός δεν την απέσυρε.', 'Πληροφορίες μοντέλου: αυτή η σελίδα περιγράφει το μοντέλο μπαταρίας, όχι το διαβατήριο μιας μεμονωμένης μπαταρίας. Το διαβατήριο κάθε μπαταρίας ανοίγει από τον κωδικό πάνω σε αυτήν την μπαταρία.', 'Λειτουργική μονάδα: kg ισοδυνάμου CO₂ ανά kWh της συνολικής ενέργειας που παρέχει το σύστημα μπαταρίας κατά τη διάρκεια ζωής του (Κανονισμός (ΕΕ) 2023/1542, άρθρο 7 παράγραφος 1 στοιχείο δ).', 'Προαιρετικό: δεν υπάρχει ακόμη κανονιστική κατηγορία (Κανονισμός (ΕΕ) 2023/1542, άρθρο 7 παράγραφος 2).', 'Αρχές εποπτείας της αγοράς: συνδεθείτε στην προβολή για τις αρχές'],
  en: ['Battery passport', 'Public information of the battery passport (Regulation (EU) 2023/1542)', 'Yes', 'No', 'General information', 'Carbon footprint', 'Supply chain due diligence', 'Material composition', 'Circularity', 'Labels and conformity', 'Performance and durability', 'Electric vehicle battery', 'LMT battery (light means of transport)', 'Industrial battery', 'Stationary battery energy storage system', 'Passport of the original battery', 'Passport of this battery in its second life', 'Battery recycled', 'This battery has been recycled', 'Its battery passport has ceased to exist (Regulation (EU) 2023/1542, Article 77(8)): the battery reached the end of its life and was recycled. Its producer did not withdraw it.', 'Model information: this page describes the battery model, not the passport of an individual battery. Each battery’s passport opens from the code on that battery.', 'Functional unit: kg of CO₂ equivalent per kWh of the total energy the battery system provides over its service life (Regulation (EU) 2023/1542, Article 7(1)(d)).', 'Voluntary: there is no regulatory class yet (Regulation (EU) 2023/1542, Article 7(2)).', 'Market surveillance authorities: sign in to the authority view'],
  es: ['Pasaporte de la batería', 'Información pública del pasaporte de la batería (Reglamento (UE) 2023/1542)', 'Sí', 'No', 'Información general', 'Huella de carbono', 'Diligencia debida en la cadena de suministro', 'Composición de materiales', 'Circularidad', 'Etiquetado y conformidad', 'Rendimiento y durabilidad', 'Batería de vehículo eléctrico', 'Batería de MTL (medio de transporte ligero)', 'Batería industrial', 'Sistema estacionario de almacenamiento de energía en baterías', 'Pasaporte de la batería original', 'Pasaporte de esta batería en su segunda vida', 'Batería reciclada', 'Esta batería ha sido reciclada', 'Su pasaporte de batería ha dejado de existir (Reglamento (UE) 2023/1542, artículo 77, apartado 8): la batería llegó al final de su vida útil y fue reciclada. El productor no la ha retirado.', 'Información del modelo: esta página describe el modelo de batería, no el pasaporte de una batería concreta. El pasaporte de cada batería se abre desde el código que lleva esa batería.', 'Unidad funcional: kg de CO₂ equivalente por kWh de la energía total que el sistema de baterías suministra durante su vida útil (Reglamento (UE) 2023/1542, artículo 7, apartado 1, letra d).', 'Voluntaria: todavía no existe una clase reglamentaria (Reglamento (UE) 2023/1542, artículo 7, apartado 2).', 'Autoridades de vigilancia del mercado: inicien sesión en la vista para autoridades'],
  et: ['Akupass', 'Akupassi avalik teave (määrus (EL) 2023/1542)', 'Jah', 'Ei', 'Üldteave', 'Süsinikujalajälg', 'Tarneahela hoolsuskohustus', 'Materjalide koostis', 'Ringlus', 'Märgistus ja vastavus', 'Toimivus ja vastupidavus', 'Elektrisõiduki aku', 'Kerge transpordivahendi aku', 'Tööstusaku', 'Statsionaarne akuenergia salvestussüsteem', 'Algse aku pass', 'Selle aku pass tema teises elus', 'Aku on ringlusse võetud', 'See aku on ringlusse võetud', 'Akupass on lakanud olemast (määrus (EL) 2023/1542, artikli 77 lõige 8): aku jõudis oma olelusringi lõppu ja võeti ringlusse. Tootja ei ole seda tagasi võtnud.', 'Mudeli teave: see leht kirjeldab akumudelit, mitte üksiku aku passi. Iga aku pass avaneb sellel akul olevast koodist.', 'Funktsionaalühik: kg CO₂-ekvivalenti ühe kWh kohta koguenergiast, mida akusüsteem oma kasutusaja jooksul annab (määrus (EL) 2023/1542, artikli 7 lõike 1 punkt d).', 'Vabatahtlik: õigusaktiga kehtestatud klassi veel ei ole (määrus (EL) 2023/1542, artikli 7 lõige 2).', 'Turujärelevalveasutused: logige sisse asutuste vaatesse'],
  fi: ['Akkupassi', 'Akkupassin julkiset tiedot (asetus (EU) 2023/1542)', 'Kyllä', 'Ei', 'Yleiset tiedot', 'Hiilijalanjälki', 'Toimitusketjun due diligence', 'Materiaalikoostumus', 'Kiertotalous', 'Merkinnät ja vaatimustenmukaisuus', 'Suorituskyky ja kestävyys', 'Sähköajoneuvon akku', 'Kevyen liikennevälineen akku', 'Teollisuusakku', 'Kiinteä akkuenergiavarastojärjestelmä', 'Alkuperäisen akun passi', 'Tämän akun passi sen toisessa elämässä', 'Akku kierrätetty', 'Tämä akku on kierrätetty', 'Akkupassi on lakannut olemasta (asetus (EU) 2023/1542, 77 artiklan 8 kohta): akku saavutti elinkaarensa lopun ja se kierrätettiin. Valmistaja ei ole vetänyt sitä pois.', 'Mallin tiedot: tämä sivu kuvaa akkumallia, ei yksittäisen akun passia. Kunkin akun passi avautuu kyseisessä akussa olevasta koodista.', 'Toiminnallinen yksikkö: kg hiilidioksidiekvivalenttia kutakin kWh:ta kohti kokonaisenergiasta, jonka akkujärjestelmä tuottaa käyttöikänsä aikana (asetus (EU) 2023/1542, 7 artiklan 1 kohdan d alakohta).', 'Vapaaehtoinen: säädöksiin perustuvaa luokkaa ei vielä ole (asetus (EU) 2023/1542, 7 artiklan 2 kohta).', 'Markkinavalvontaviranomaiset: kirjaudu viranomaisnäkymään'],
  fr: ['Passeport de batterie', 'Informations publiques du passeport de batterie (règlement (UE) 2023/1542)', 'Oui', 'Non', 'Informations générales', 'Empreinte carbone', 'Devoir de diligence dans la chaîne d’approvisionnement', 'Composition des matériaux', 'Circularité', 'Étiquetage et conformité', 'Performance et durabilité', 'Batterie de véhicule électrique', 'Batterie MTL (moyen de transport léger)', 'Batterie industrielle', 'Système stationnaire de stockage d’énergie par batterie', 'Passeport de la batterie d’origine', 'Passeport de cette batterie dans sa seconde vie', 'Batterie recyclée', 'Cette batterie a été recyclée', 'Son passeport de batterie a cessé d’exister (règlement (UE) 2023/1542, article 77, paragraphe 8) : la batterie est arrivée en fin de vie et a été recyclée. Son producteur ne l’a pas retirée.', 'Informations sur le modèle : cette page décrit le modèle de batterie, non le passeport d’une batterie individuelle. Le passeport de chaque batterie s’ouvre depuis le code apposé sur cette batterie.', 'Unité fonctionnelle\u00a0: kg d’équivalent CO₂ par kWh de l’énergie totale fournie par le système de batterie pendant sa durée de vie (règlement (UE) 2023/1542, article 7, paragraphe 1, point d).', 'Facultative\u00a0: il n’existe pas encore de classe réglementaire (règlement (UE) 2023/1542, article 7, paragraphe 2).', 'Autorités de surveillance du marché\u00a0: connectez-vous à la vue des autorités'],
  ga: ['Pas ceallraí', 'Faisnéis phoiblí ó phas an cheallraí (Rialachán (AE) 2023/1542)', 'Tá', 'Níl', 'Faisnéis ghinearálta', 'Lorg carbóin', 'Díchill chuí sa slabhra soláthair', 'Comhdhéanamh ábhar', 'Ciorclaíocht', 'Lipéadú agus comhréireacht', 'Feidhmíocht agus marthanacht', 'Ceallra feithicle leictrí', 'Ceallra LMT (modh iompair éadrom)', 'Ceallra tionsclaíoch', 'Córas stórála fuinnimh ceallraí neamhghluaiste', 'Pas an cheallra bhunaidh', 'Pas an cheallra seo ina dhara saol', 'Ceallra athchúrsáilte', 'Athchúrsáladh an ceallra seo', 'Tá deireadh le pas an cheallra (Rialachán (AE) 2023/1542, Airteagal 77(8)): tháinig an ceallra go deireadh a shaoil agus athchúrsáladh é. Níor tharraing an táirgeoir siar é.', 'Faisnéis faoin tsamhail: déanann an leathanach seo cur síos ar shamhail an cheallra, ní ar phas ceallra aonair. Osclaítear pas gach ceallra ón gcód ar an gceallra sin.', 'Aonad feidhmiúil: kg de choibhéis CO₂ in aghaidh an kWh den fhuinneamh iomlán a sholáthraíonn córas an cheallra le linn a ré (Rialachán (AE) 2023/1542, Airteagal 7(1)(d)).', 'Deonach: níl aicme rialála ann fós (Rialachán (AE) 2023/1542, Airteagal 7(2)).', 'Údaráis faireachais margaidh: sínigh isteach san amharc d’údaráis'],
  hr: ['Putovnica baterije', 'Javne informacije iz putovnice baterije (Uredba (EU) 2023/1542)', 'Da', 'Ne', 'Opće informacije', 'Ugljični otisak', 'Dužna pažnja u lancu opskrbe', 'Sastav materijala', 'Kružnost', 'Označivanje i sukladnost', 'Učinkovitost i trajnost', 'Baterija za električno vozilo', 'Baterija za LPS (lako prijevozno sredstvo)', 'Industrijska baterija', 'Stacionarni baterijski sustav za pohranu energije', 'Putovnica izvorne baterije', 'Putovnica ove baterije u njezinu drugom životu', 'Baterija reciklirana', 'Ova baterija je reciklirana', 'Putovnica baterije prestala je postojati (Uredba (EU) 2023/1542, članak 77. stavak 8.): baterija je došla do kraja svog životnog vijeka i reciklirana je. Proizvođač je nije povukao.', 'Informacije o modelu: ova stranica opisuje model baterije, a ne putovnicu pojedinačne baterije. Putovnica svake baterije otvara se putem koda na toj bateriji.', 'Funkcionalna jedinica: kg ekvivalenta CO₂ po kWh ukupne energije koju baterijski sustav isporuči tijekom svojeg vijeka trajanja (Uredba (EU) 2023/1542, članak 7. stavak 1. točka (d)).', 'Dobrovoljno: regulatorni razred još ne postoji (Uredba (EU) 2023/1542, članak 7. stavak 2.).', 'Tijela za nadzor tržišta: prijavite se u prikaz za tijela'],
  hu: ['Akkumulátorútlevél', 'Az akkumulátorútlevél nyilvános adatai ((EU) 2023/1542 rendelet)', 'Igen', 'Nem', 'Általános információk', 'Karbonlábnyom', 'Az ellátási lánc átvilágítása', 'Anyagösszetétel', 'Körforgásos jelleg', 'Címkézés és megfelelőség', 'Teljesítmény és tartósság', 'Elektromos járművek akkumulátora', 'Könnyű közlekedési eszköz akkumulátora', 'Ipari akkumulátor', 'Helyhez kötött akkumulátoros energiatároló rendszer', 'Az eredeti akkumulátor útlevele', 'Ennek az akkumulátornak az útlevele a második életében', 'Újrafeldolgozott akkumulátor', 'Ezt az akkumulátort újrafeldolgozták', 'Az akkumulátorútlevél megszűnt ((EU) 2023/1542 rendelet, 77. cikk (8) bekezdés): az akkumulátor élettartama végére ért, és újrafeldolgozták. A gyártó nem vonta vissza.', 'Modellinformáció: ez az oldal az akkumulátormodellt írja le, nem egy egyedi akkumulátor útlevelét. Minden akkumulátor útlevele az adott akkumulátoron lévő kódról nyitható meg.', 'Funkcionális egység: kg szén-dioxid-egyenérték az akkumulátorrendszer által élettartama alatt leadott teljes energia egy kWh-jára vetítve ((EU) 2023/1542 rendelet, 7. cikk (1) bekezdés d) pont).', 'Önkéntes: jogszabályi osztály még nincs ((EU) 2023/1542 rendelet, 7. cikk (2) bekezdés).', 'Piacfelügyeleti hatóságok: bejelentkezés a hatósági nézetbe'],
  it: ['Passaporto della batteria', 'Informazioni pubbliche del passaporto della batteria (regolamento (UE) 2023/1542)', 'Sì', 'No', 'Informazioni generali', 'Impronta di carbonio', 'Dovere di diligenza nella catena di approvvigionamento', 'Composizione dei materiali', 'Circolarità', 'Etichettatura e conformità', 'Prestazioni e durabilità', 'Batteria per veicoli elettrici', 'Batteria per MTL (mezzo di trasporto leggero)', 'Batteria industriale', 'Sistema stazionario di stoccaggio dell’energia a batteria', 'Passaporto della batteria originale', 'Passaporto di questa batteria nella sua seconda vita', 'Batteria riciclata', 'Questa batteria è stata riciclata', 'Il passaporto della batteria ha cessato di esistere (regolamento (UE) 2023/1542, articolo 77, paragrafo 8): la batteria ha raggiunto la fine del suo ciclo di vita ed è stata riciclata. Il produttore non l’ha ritirata.', 'Informazioni sul modello: questa pagina descrive il modello di batteria, non il passaporto di una singola batteria. Il passaporto di ogni batteria si apre dal codice presente su quella batteria.', 'Unità funzionale: kg di CO₂ equivalente per kWh dell’energia totale fornita dal sistema di batterie durante la sua vita utile (regolamento (UE) 2023/1542, articolo 7, paragrafo 1, lettera d).', 'Facoltativa: non esiste ancora una classe regolamentare (regolamento (UE) 2023/1542, articolo 7, paragrafo 2).', 'Autorità di vigilanza del mercato: accedete alla vista per le autorità'],
  lt: ['Baterijos pasas', 'Vieša baterijos paso informacija (Reglamentas (ES) 2023/1542)', 'Taip', 'Ne', 'Bendroji informacija', 'Anglies pėdsakas', 'Tiekimo grandinės išsamus patikrinimas', 'Medžiagų sudėtis', 'Žiedinis ciklas', 'Ženklinimas ir atitiktis', 'Veikimo charakteristikos ir patvarumas', 'Elektrinės transporto priemonės baterija', 'LTP (lengvosios transporto priemonės) baterija', 'Pramoninė baterija', 'Stacionarioji baterijų energijos kaupimo sistema', 'Pradinės baterijos pasas', 'Šios baterijos pasas antrajame jos gyvenime', 'Baterija perdirbta', 'Ši baterija buvo perdirbta', 'Baterijos pasas nustojo egzistuoti (Reglamentas (ES) 2023/1542, 77 straipsnio 8 dalis): baterija pasiekė savo gyvavimo ciklo pabaigą ir buvo perdirbta. Gamintojas jos neatšaukė.', 'Modelio informacija: šiame puslapyje aprašomas baterijos modelis, o ne atskiros baterijos pasas. Kiekvienos baterijos pasas atveriamas iš kodo, esančio ant tos baterijos.', 'Funkcinis vienetas: kg CO₂ ekvivalento vienai kWh visos energijos, kurią baterijų sistema tiekia per savo eksploatavimo laiką (Reglamentas (ES) 2023/1542, 7 straipsnio 1 dalies d punktas).', 'Savanoriška: reglamentuotos klasės dar nėra (Reglamentas (ES) 2023/1542, 7 straipsnio 2 dalis).', 'Rinkos priežiūros institucijos: prisijunkite prie institucijoms skirto rodinio'],
  lv: ['Baterijas pase', 'Baterijas pases publiskā informācija (Regula (ES) 2023/1542)', 'Jā', 'Nē', 'Vispārīga informācija', 'Oglekļa pēda', 'Piegādes ķēdes pienācīga pārbaude', 'Materiālu sastāvs', 'Aprite', 'Marķējums un atbilstība', 'Veiktspēja un ilgizturība', 'Elektrotransportlīdzekļa baterija', 'VTL (vieglā transportlīdzekļa) baterija', 'Rūpnieciskā baterija', 'Stacionāra bateriju enerģijas uzkrāšanas sistēma', 'Sākotnējās baterijas pase', 'Šīs baterijas pase tās otrajā dzīvē', 'Baterija pārstrādāta', 'Šī baterija ir pārstrādāta', 'Baterijas pase ir beigusi pastāvēt (Regula (ES) 2023/1542, 77. panta 8. punkts): baterija sasniedza sava mūža beigas un tika pārstrādāta. Ražotājs to nav atsaucis.', 'Informācija par modeli: šajā lapā aprakstīts baterijas modelis, nevis atsevišķas baterijas pase. Katras baterijas pasi atver no koda, kas atrodas uz šīs baterijas.', 'Funkcionālā vienība: kg CO₂ ekvivalenta uz vienu kWh no kopējās enerģijas, ko bateriju sistēma nodrošina savā kalpošanas laikā (Regula (ES) 2023/1542, 7. panta 1. punkta d) apakšpunkts).', 'Brīvprātīgi: normatīvas klases vēl nav (Regula (ES) 2023/1542, 7. panta 2. punkts).', 'Tirgus uzraudzības iestādes: piesakieties iestāžu skatā'],
  mt: ['Passaport tal-batterija', 'Informazzjoni pubblika tal-passaport tal-batterija (Regolament (UE) 2023/1542)', 'Iva', 'Le', 'Informazzjoni ġenerali', 'Impronta tal-karbonju', 'Diliġenza dovuta fil-katina tal-provvista', 'Kompożizzjoni tal-materjali', 'Ċirkolarità', 'Tikkettar u konformità', 'Prestazzjoni u durabbiltà', 'Batterija ta’ vettura elettrika', 'Batterija LMT (mezz tat-trasport ħafif)', 'Batterija industrijali', 'Sistema stazzjonarja ta’ ħżin tal-enerġija bil-batteriji', 'Passaport tal-batterija oriġinali', 'Passaport ta’ din il-batterija fit-tieni ħajja tagħha', 'Batterija riċiklata', 'Din il-batterija ġiet riċiklata', 'Il-passaport tal-batterija ma għadux jeżisti (Regolament (UE) 2023/1542, Artikolu 77(8)): il-batterija waslet fi tmiem il-ħajja tagħha u ġiet riċiklata. Il-produttur ma rtirahiex.', 'Informazzjoni dwar il-mudell: din il-paġna tiddeskrivi l-mudell tal-batterija, mhux il-passaport ta’ batterija individwali. Il-passaport ta’ kull batterija jinfetaħ mill-kodiċi fuq dik il-batterija.', 'Unità funzjonali: kg ta’ ekwivalenti ta’ CO₂ għal kull kWh tal-enerġija totali li s-sistema tal-batterija tipprovdi matul il-ħajja tagħha (Regolament (UE) 2023/1542, Artikolu 7(1)(d)).', 'Volontarja: għad m’hemm l-ebda klassi regolatorja (Regolament (UE) 2023/1542, Artikolu 7(2)).', 'Awtoritajiet tas-sorveljanza tas-suq: idħlu fil-veduta tal-awtoritajiet'],
  nl: ['Batterijpaspoort', 'Openbare informatie uit het batterijpaspoort (Verordening (EU) 2023/1542)', 'Ja', 'Nee', 'Algemene informatie', 'Koolstofvoetafdruk', 'Zorgvuldigheid in de toeleveringsketen', 'Materiaalsamenstelling', 'Circulariteit', 'Etikettering en conformiteit', 'Prestaties en duurzaamheid', 'Batterij voor elektrische voertuigen', 'LMT-batterij (licht vervoermiddel)', 'Industriële batterij', 'Stationair batterij-energieopslagsysteem', 'Paspoort van de oorspronkelijke batterij', 'Paspoort van deze batterij in haar tweede leven', 'Batterij gerecycled', 'Deze batterij is gerecycled', 'Het batterijpaspoort bestaat niet meer (Verordening (EU) 2023/1542, artikel 77, lid 8): de batterij heeft het einde van haar levensduur bereikt en is gerecycled. De producent heeft haar niet teruggetrokken.', 'Modelinformatie: deze pagina beschrijft het batterijmodel, niet het paspoort van een afzonderlijke batterij. Het paspoort van elke batterij opent u met de code op die batterij.', 'Functionele eenheid: kg CO₂-equivalent per kWh van de totale energie die het batterijsysteem gedurende zijn levensduur levert (Verordening (EU) 2023/1542, artikel 7, lid 1, punt d).', 'Vrijwillig: er bestaat nog geen wettelijke klasse (Verordening (EU) 2023/1542, artikel 7, lid 2).', 'Markttoezichtautoriteiten: meld u aan bij de weergave voor autoriteiten'],
  pl: ['Paszport baterii', 'Informacje publiczne z paszportu baterii (rozporządzenie (UE) 2023/1542)', 'Tak', 'Nie', 'Informacje ogólne', 'Ślad węglowy', 'Należyta staranność w łańcuchu dostaw', 'Skład materiałowy', 'Obieg zamknięty', 'Oznakowanie i zgodność', 'Wydajność i trwałość', 'Bateria do pojazdów elektrycznych', 'Bateria do LŚT (lekkich środków transportu)', 'Bateria przemysłowa', 'Stacjonarny bateryjny system magazynowania energii', 'Paszport oryginalnej baterii', 'Paszport tej baterii w jej drugim życiu', 'Bateria poddana recyklingowi', 'Ta bateria została poddana recyklingowi', 'Paszport baterii przestał istnieć (rozporządzenie (UE) 2023/1542, art. 77 ust. 8): bateria osiągnęła koniec cyklu życia i została poddana recyklingowi. Producent jej nie wycofał.', 'Informacje o modelu: ta strona opisuje model baterii, a nie paszport pojedynczej baterii. Paszport każdej baterii otwiera się z kodu umieszczonego na tej baterii.', 'Jednostka funkcjonalna: kg ekwiwalentu CO₂ na kWh całkowitej energii dostarczonej przez system baterii w okresie jego użytkowania (rozporządzenie (UE) 2023/1542, art. 7 ust. 1 lit. d)).', 'Dobrowolna: klasa określona w przepisach jeszcze nie istnieje (rozporządzenie (UE) 2023/1542, art. 7 ust. 2).', 'Organy nadzoru rynku: zaloguj się do widoku dla organów'],
  pt: ['Passaporte da bateria', 'Informações públicas do passaporte da bateria (Regulamento (UE) 2023/1542)', 'Sim', 'Não', 'Informações gerais', 'Pegada de carbono', 'Dever de diligência na cadeia de abastecimento', 'Composição dos materiais', 'Circularidade', 'Rotulagem e conformidade', 'Desempenho e durabilidade', 'Bateria de veículo elétrico', 'Bateria de MTL (meio de transporte ligeiro)', 'Bateria industrial', 'Sistema estacionário de armazenamento de energia em baterias', 'Passaporte da bateria original', 'Passaporte desta bateria na sua segunda vida', 'Bateria reciclada', 'Esta bateria foi reciclada', 'O passaporte da bateria deixou de existir (Regulamento (UE) 2023/1542, artigo 77.º, n.º 8): a bateria chegou ao fim da sua vida e foi reciclada. O produtor não a retirou.', 'Informações do modelo: esta página descreve o modelo de bateria, não o passaporte de uma bateria individual. O passaporte de cada bateria abre-se a partir do código aposto nessa bateria.', 'Unidade funcional: kg de CO₂ equivalente por kWh da energia total fornecida pelo sistema de baterias durante a sua vida útil (Regulamento (UE) 2023/1542, artigo 7.º, n.º 1, alínea d)).', 'Voluntária: ainda não existe uma classe regulamentar (Regulamento (UE) 2023/1542, artigo 7.º, n.º 2).', 'Autoridades de fiscalização do mercado: iniciem sessão na vista das autoridades'],
  ro: ['Pașaportul bateriei', 'Informații publice din pașaportul bateriei (Regulamentul (UE) 2023/1542)', 'Da', 'Nu', 'Informații generale', 'Amprenta de carbon', 'Diligența necesară în lanțul de aprovizionare', 'Compoziția materialelor', 'Circularitate', 'Etichetare și conformitate', 'Performanță și durabilitate', 'Baterie pentru vehicule electrice', 'Baterie MTU (mijloc de transport ușor)', 'Baterie industrială', 'Sistem staționar de stocare a energiei în baterii', 'Pașaportul bateriei originale', 'Pașaportul acestei baterii în a doua sa viață', 'Baterie reciclată', 'Această baterie a fost reciclată', 'Pașaportul bateriei a încetat să existe (Regulamentul (UE) 2023/1542, articolul 77 alineatul (8)): bateria a ajuns la sfârșitul duratei de viață și a fost reciclată. Producătorul nu a retras-o.', 'Informații despre model: această pagină descrie modelul de baterie, nu pașaportul unei baterii individuale. Pașaportul fiecărei baterii se deschide din codul de pe bateria respectivă.', 'Unitate funcțională: kg echivalent CO₂ per kWh din energia totală furnizată de sistemul de baterii pe durata sa de viață (Regulamentul (UE) 2023/1542, articolul 7 alineatul (1) litera (d)).', 'Voluntară: nu există încă o clasă reglementată (Regulamentul (UE) 2023/1542, articolul 7 alineatul (2)).', 'Autoritățile de supraveghere a pieței: autentificați-vă în vizualizarea pentru autorități'],
  sk: ['Pas batérie', 'Verejné informácie z pasu batérie (nariadenie (EÚ) 2023/1542)', 'Áno', 'Nie', 'Všeobecné informácie', 'Uhlíková stopa', 'Náležitá starostlivosť v dodávateľskom reťazci', 'Materiálové zloženie', 'Obehovosť', 'Označovanie a zhoda', 'Výkon a životnosť', 'Batéria elektrického vozidla', 'Batéria ĽDP (ľahkého dopravného prostriedku)', 'Priemyselná batéria', 'Stacionárny batériový systém na uchovávanie energie', 'Pas pôvodnej batérie', 'Pas tejto batérie v jej druhom živote', 'Batéria recyklovaná', 'Táto batéria bola recyklovaná', 'Pas batérie prestal existovať (nariadenie (EÚ) 2023/1542, článok 77 ods. 8): batéria dosiahla koniec svojej životnosti a bola recyklovaná. Výrobca ju nestiahol.', 'Informácie o modeli: táto stránka opisuje model batérie, nie pas jednotlivej batérie. Pas každej batérie sa otvára z kódu na danej batérii.', 'Funkčná jednotka: kg ekvivalentu CO₂ na kWh celkovej energie, ktorú batériový systém dodá počas svojej životnosti (nariadenie (EÚ) 2023/1542, článok 7 ods. 1 písm. d)).', 'Dobrovoľné: regulačná trieda zatiaľ neexistuje (nariadenie (EÚ) 2023/1542, článok 7 ods. 2).', 'Orgány dohľadu nad trhom: prihláste sa do zobrazenia pre orgány'],
  sl: ['Potni list baterije', 'Javni podatki iz potnega lista baterije (Uredba (EU) 2023/1542)', 'Da', 'Ne', 'Splošni podatki', 'Ogljični odtis', 'Potrebna skrbnost v dobavni verigi', 'Sestava materialov', 'Krožnost', 'Označevanje in skladnost', 'Zmogljivost in trajnost', 'Baterija za električna vozila', 'Baterija za LPS (lahko prevozno sredstvo)', 'Industrijska baterija', 'Stacionarni baterijski sistem za shranjevanje energije', 'Potni list izvirne baterije', 'Potni list te baterije v njenem drugem življenju', 'Baterija reciklirana', 'Ta baterija je bila reciklirana', 'Potni list baterije je prenehal obstajati (Uredba (EU) 2023/1542, člen 77(8)): baterija je dosegla konec svoje življenjske dobe in je bila reciklirana. Proizvajalec je ni umaknil.', 'Podatki o modelu: ta stran opisuje model baterije, ne potnega lista posamezne baterije. Potni list vsake baterije se odpre s kodo na tej bateriji.', 'Funkcionalna enota: kg ekvivalenta CO₂ na kWh skupne energije, ki jo baterijski sistem zagotovi v svoji življenjski dobi (Uredba (EU) 2023/1542, člen 7(1)(d)).', 'Prostovoljno: regulativni razred še ne obstaja (Uredba (EU) 2023/1542, člen 7(2)).', 'Organi za nadzor trga: prijavite se v pogled za organe'],
  sv: ['Batteripass', 'Offentlig information i batteripasset (förordning (EU) 2023/1542)', 'Ja', 'Nej', 'Allmän information', 'Koldioxidavtryck', 'Tillbörlig aktsamhet i leveranskedjan', 'Materialsammansättning', 'Cirkularitet', 'Märkning och överensstämmelse', 'Prestanda och hållbarhet', 'Batteri för elfordon', 'LMT-batteri (lätta transportmedel)', 'Industribatteri', 'Stationärt batterisystem för energilagring', 'Pass för det ursprungliga batteriet', 'Pass för detta batteri i dess andra liv', 'Batteriet har återvunnits', 'Detta batteri har återvunnits', 'Batteripasset har upphört att existera (förordning (EU) 2023/1542, artikel 77.8): batteriet nådde slutet av sin livslängd och återvanns. Tillverkaren har inte dragit tillbaka det.', 'Modellinformation: den här sidan beskriver batterimodellen, inte passet för ett enskilt batteri. Varje batteris pass öppnas från koden på just det batteriet.', 'Funktionell enhet: kg koldioxidekvivalenter per kWh av den totala energi som batterisystemet levererar under sin livslängd (förordning (EU) 2023/1542, artikel 7.1 d).', 'Frivillig: det finns ännu ingen reglerad klass (förordning (EU) 2023/1542, artikel 7.2).', 'Marknadskontrollmyndigheter: logga in i myndighetsvyn'],
};

/** The page's words of one language, by key (test/unit/battery-page.test.ts checks all 24 are complete). */
export function pageWords(lang: Lang): Readonly<Record<PageKey, string>> {
  const words = WORDS[lang];
  return Object.fromEntries(PAGE_KEYS.map((key, index) => [key, words[index] ?? WORDS.en[index]])) as Record<PageKey, string>;
}

/** The languages the page's words are written in: all 24. */
export const PAGE_LANGUAGES = Object.keys(WORDS) as Lang[];

export const categoryWord = (category: BatteryCategory): PageKey => `category_${category}`;

/** The names in each language (texts/names/), each file complete (the compiler holds it to its key lists, texts/names.ts). */
const NAMES_BY_LANGUAGE: Readonly<Record<Lang, LanguageNames>> = {
  bg: bg.NAMES, cs: cs.NAMES, da: da.NAMES, de: de.NAMES, el: el.NAMES, en: en.NAMES, es: es.NAMES, et: et.NAMES,
  fi: fi.NAMES, fr: fr.NAMES, ga: ga.NAMES, hr: hr.NAMES, hu: hu.NAMES, it: it.NAMES, lt: lt.NAMES, lv: lv.NAMES,
  mt: mt.NAMES, nl: nl.NAMES, pl: pl.NAMES, pt: pt.NAMES, ro: ro.NAMES, sk: sk.NAMES, sl: sl.NAMES, sv: sv.NAMES,
};

/** The languages the names of elements, members and values are written in: all 24. */
export const NAME_LANGUAGES: readonly Lang[] = LANGUAGES;
type Names = Readonly<Record<string, Readonly<Partial<Record<Lang, string>>>>>;

/** One table of names pivoted by key: `{ ratedCapacity: { bg: …, cs: …, … } }`. */
function byKey(table: NameTable, keys: readonly string[], keyOf: (key: string) => string = (key) => key): Names {
  return Object.fromEntries(
    keys.map((key) => [key, Object.fromEntries(LANGUAGES.map((lang) => [lang, (NAMES_BY_LANGUAGE[lang][table] as Readonly<Record<string, string>>)[keyOf(key)]]))]),
  );
}

/**
 * The names of the public elements, by element path (the English one as the element map has it,
 * lib/domain/battery/element-map.ts). Elements no public reader sees have no entry: the page
 * never shows them.
 */
export const ELEMENT_NAMES: Names = byKey('elements', ELEMENT_NAME_PATHS, elementNameKey);

/** The names of the members inside public elements (a contact's name, a stage's footprint, …), by the data model's member name. */
export const FIELD_NAMES: Names = byKey('fields', FIELD_NAME_KEYS);

/** The names of the enumerations' values that public elements hold, by the data model's value. */
export const VALUE_NAMES: Names = byKey('values', VALUE_NAME_KEYS);

const TABLE_OF: ReadonlyMap<Names, NameTable> = new Map([
  [ELEMENT_NAMES, 'elements'],
  [FIELD_NAMES, 'fields'],
  [VALUE_NAMES, 'values'],
]);

/** What "our translation, unconfirmed" reads as a name's source. */
export const UNCONFIRMED_TRANSLATION = 'our translation, unconfirmed';

/**
 * Where a name comes from: the element map for English, the regulation's text where the language's
 * file lists it as confirmed (with where it was read), else our translation, unconfirmed
 * (docs/battery.md#what-is-unconfirmed).
 */
export function nameSource(table: Names, key: string, lang: Lang): { confirmed: boolean; source: string } {
  if (lang === 'en') return { confirmed: true, source: 'the element map’s English name (lib/domain/battery/element-map.ts)' };
  const kind = TABLE_OF.get(table);
  const qualified = `${kind}:${kind === 'elements' ? elementNameKey(key) : key}` as QualifiedNameKey;
  const source = NAMES_BY_LANGUAGE[lang].confirmed?.[qualified];
  return source === undefined ? { confirmed: false, source: UNCONFIRMED_TRANSLATION } : { confirmed: true, source };
}

/**
 * A name in the page's language, or in English with `lang: 'en'` when it has none in that language;
 * undefined when the table has no entry at all.
 */
export function nameIn(table: Names, key: string, lang: Lang): { text: string; lang?: 'en' } | undefined {
  if (!Object.hasOwn(table, key)) return undefined;
  const names = table[key] as Readonly<Partial<Record<Lang, string>>>;
  const own = names[lang];
  if (own !== undefined && own.trim() !== '') return { text: own };
  const english = names.en ?? '';
  return lang === 'en' ? { text: english } : { text: english, lang: 'en' };
}

/**
 * The units of the numbers of public elements, as stored (SI symbols, the same in every language;
 * the data model names none: docs/battery.md). The page shows W, V, Ω, Ah and kWh with the SI
 * prefix that suits the value (functions/resolver/page/battery.ts). The absolute footprint is in
 * tonnes (t CO₂e), the footprint per functional unit in kg CO₂e/kWh (docs/battery.md#the-public-page-json-and-links).
 */
export const UNITS: Readonly<Record<string, string>> = {
  batteryMass: 'kg',
  batteryCarbonFootprint: 'kg CO₂e/kWh',
  carbonFootprint: 'kg CO₂e/kWh',
  absoluteCarbonFootprint: 't CO₂e',
  hazardousSubstanceConcentration: '%',
  criticalRawMaterialConcentration: '%',
  preConsumerShare: '%',
  postConsumerShare: '%',
  renewableContent: '%',
  atSoC: '%',
  powerCapabilityAt: 'W',
  ratedMaximumPower: 'W',
  powerCapabilityRatio: 'W/Wh',
  ratedEnergy: 'kWh',
  roundtripEfficiency: '%',
  ratedCapacity: 'Ah',
  ohmicResistance: 'Ω',
  cRate: 'C',
  nominalVoltage: 'V',
  minimumVoltage: 'V',
  maximumVoltage: 'V',
  capacityThresholdForExhaustion: '%',
  cRateLifeCycleTest: 'C',
  minimum: '°C',
  maximum: '°C',
  roundTripEfficiencyat50PerCentCycleLife: '%',
};

/**
 * A duration's years and months in words where the Unicode CLDR data of the runtime (Intl) has no
 * long unit names (it prints `10 y`): our own words, by plural category (Intl.PluralRules), `{0}`
 * the number. Unconfirmed: not read by a native speaker (docs/battery.md#what-is-unconfirmed). Every
 * other language takes CLDR's words (functions/resolver/page/battery.ts).
 */
export const DURATION_WORDS_UNCONFIRMED: Partial<Record<Lang, Readonly<Record<'year' | 'month', Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & { other: string }>>>> = {
  mt: {
    year: { one: '{0} sena', two: '{0} snin', few: '{0} snin', many: '{0}-il sena', other: '{0} sena' },
    month: { one: '{0} xahar', two: '{0} xhur', few: '{0} xhur', many: '{0}-il xahar', other: '{0} xahar' },
  },
};
