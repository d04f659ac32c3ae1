import type { Lang } from '../labelling/languages.ts';
import type { BatteryCategory } from './categories.ts';

/**
 * The words of the public battery passport page (functions/resolver/page/battery.ts,
 * docs/battery.md#the-public-page-json-and-links): its own words in the 24 official EU languages,
 * and the names of the public elements, their members and their values in English, German and
 * French. A name missing in the page's language is shown in English, marked `lang="en"`. Our own
 * translations, not yet read by native speakers (docs/battery.md#what-is-unconfirmed). Kept apart
 * from the e-label's texts (lib/domain/labelling/texts/) and imported only by the battery page.
 * No imports but types.
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
];

/** The page's own words, in the order of PAGE_KEYS. */
const WORDS: Readonly<Record<Lang, Words>> = {
  bg: ['Паспорт на батерията', 'Публична информация от паспорта на батерията (Регламент (ЕС) 2023/1542)', 'Да', 'Не', 'Обща информация', 'Въглероден отпечатък', 'Надлежна проверка на веригата на доставки', 'Състав на материалите', 'Кръговост', 'Етикети и съответствие', 'Експлоатационни показатели и дълготрайност', 'Батерия за електрическо превозно средство', 'Батерия за ЛПС (леко превозно средство)', 'Промишлена батерия', 'Стационарна система за съхранение на енергия в батерии', 'Паспорт на първоначалната батерия', 'Паспорт на тази батерия в нейния втори живот', 'Батерията е рециклирана', 'Тази батерия е рециклирана', 'Паспортът на батерията е престанал да съществува (Регламент (ЕС) 2023/1542, член 77, параграф 8): батерията е достигнала края на жизнения си цикъл и е рециклирана. Производителят не я е изтеглил.', 'Информация за модела: тази страница описва модела батерия, а не паспорта на отделна батерия. Паспортът на всяка батерия се отваря от кода върху самата батерия.'],
  cs: ['Pas baterie', 'Veřejné informace z pasu baterie (nařízení (EU) 2023/1542)', 'Ano', 'Ne', 'Obecné informace', 'Uhlíková stopa', 'Náležitá péče v dodavatelském řetězci', 'Materiálové složení', 'Oběhovost', 'Označení a shoda', 'Výkonnost a životnost', 'Baterie pro elektromobily', 'Baterie LMT (lehký dopravní prostředek)', 'Průmyslová baterie', 'Stacionární bateriový systém pro ukládání energie', 'Pas původní baterie', 'Pas této baterie v jejím druhém životě', 'Baterie recyklována', 'Tato baterie byla recyklována', 'Pas baterie přestal existovat (nařízení (EU) 2023/1542, čl. 77 odst. 8): baterie dosáhla konce své životnosti a byla recyklována. Výrobce ji nestáhl.', 'Informace o modelu: tato stránka popisuje model baterie, nikoli pas jednotlivé baterie. Pas každé baterie se otevírá z kódu na dané baterii.'],
  da: ['Batteripas', 'Offentlige oplysninger fra batteripasset (forordning (EU) 2023/1542)', 'Ja', 'Nej', 'Generelle oplysninger', 'CO₂-fodaftryk', 'Due diligence i forsyningskæden', 'Materialesammensætning', 'Cirkularitet', 'Mærkning og overensstemmelse', 'Ydeevne og holdbarhed', 'Batteri til elkøretøjer', 'LMT-batteri (lette transportmidler)', 'Industribatteri', 'Stationært batterienergilagringssystem', 'Pas for det oprindelige batteri', 'Pas for dette batteri i dets andet liv', 'Batteriet er genanvendt', 'Dette batteri er blevet genanvendt', 'Batteripasset er ophørt med at eksistere (forordning (EU) 2023/1542, artikel 77, stk. 8): batteriet nåede slutningen af sin levetid og blev genanvendt. Producenten har ikke trukket det tilbage.', 'Modeloplysninger: denne side beskriver batterimodellen, ikke passet for et enkelt batteri. Hvert batteris pas åbnes fra koden på det pågældende batteri.'],
  de: ['Batteriepass', 'Öffentliche Angaben des Batteriepasses (Verordnung (EU) 2023/1542)', 'Ja', 'Nein', 'Allgemeine Angaben', 'CO₂-Fußabdruck', 'Sorgfaltspflichten in der Lieferkette', 'Materialzusammensetzung', 'Kreislaufwirtschaft', 'Kennzeichnung und Konformität', 'Leistung und Haltbarkeit', 'Elektrofahrzeugbatterie', 'LV-Batterie (leichtes Verkehrsmittel)', 'Industriebatterie', 'Stationäres Batterie-Energiespeichersystem', 'Pass der ursprünglichen Batterie', 'Pass dieser Batterie in ihrem zweiten Leben', 'Batterie recycelt', 'Diese Batterie wurde recycelt', 'Ihr Batteriepass hat aufgehört zu existieren (Verordnung (EU) 2023/1542, Artikel 77 Absatz 8): Die Batterie hat das Ende ihrer Lebensdauer erreicht und wurde recycelt. Der Hersteller hat sie nicht zurückgezogen.', 'Angaben zum Modell: Diese Seite beschreibt das Batteriemodell, nicht den Pass einer einzelnen Batterie. Den Pass jeder Batterie öffnet der Code auf dieser Batterie.'],
  el: ['Διαβατήριο μπαταρίας', 'Δημόσιες πληροφορίες του διαβατηρίου μπαταρίας (Κανονισμός (ΕΕ) 2023/1542)', 'Ναι', 'Όχι', 'Γενικές πληροφορίες', 'Αποτύπωμα άνθρακα', 'Δέουσα επιμέλεια στην αλυσίδα εφοδιασμού', 'Σύνθεση υλικών', 'Κυκλικότητα', 'Σήμανση και συμμόρφωση', 'Επιδόσεις και ανθεκτικότητα', 'Μπαταρία ηλεκτρικού οχήματος', 'Μπαταρία ΕΜΜ (ελαφρύ μέσο μεταφοράς)', 'Βιομηχανική μπαταρία', 'Στατικό σύστημα αποθήκευσης ενέργειας σε μπαταρίες', 'Διαβατήριο της αρχικής μπαταρίας', 'Διαβατήριο αυτής της μπαταρίας στη δεύτερη ζωή της', 'Η μπαταρία ανακυκλώθηκε', 'Αυτή η μπαταρία έχει ανακυκλωθεί', 'Το διαβατήριο της μπαταρίας έπαψε να υπάρχει (Κανονισμός (ΕΕ) 2023/1542, άρθρο 77 παράγραφος 8): η μπαταρία έφτασε στο τέλος του κύκλου ζωής της και ανακυκλώθηκε. Ο παραγωγός δεν την απέσυρε.', 'Πληροφορίες μοντέλου: αυτή η σελίδα περιγράφει το μοντέλο μπαταρίας, όχι το διαβατήριο μιας μεμονωμένης μπαταρίας. Το διαβατήριο κάθε μπαταρίας ανοίγει από τον κωδικό πάνω σε αυτήν την μπαταρία.'],
  en: ['Battery passport', 'Public information of the battery passport (Regulation (EU) 2023/1542)', 'Yes', 'No', 'General information', 'Carbon footprint', 'Supply chain due diligence', 'Material composition', 'Circularity', 'Labels and conformity', 'Performance and durability', 'Electric vehicle battery', 'LMT battery (light means of transport)', 'Industrial battery', 'Stationary battery energy storage system', 'Passport of the original battery', 'Passport of this battery in its second life', 'Battery recycled', 'This battery has been recycled', 'Its battery passport has ceased to exist (Regulation (EU) 2023/1542, Article 77(8)): the battery reached the end of its life and was recycled. Its producer did not withdraw it.', 'Model information: this page describes the battery model, not the passport of an individual battery. Each battery’s passport opens from the code on that battery.'],
  es: ['Pasaporte de la batería', 'Información pública del pasaporte de la batería (Reglamento (UE) 2023/1542)', 'Sí', 'No', 'Información general', 'Huella de carbono', 'Diligencia debida en la cadena de suministro', 'Composición de materiales', 'Circularidad', 'Etiquetado y conformidad', 'Rendimiento y durabilidad', 'Batería de vehículo eléctrico', 'Batería de MTL (medio de transporte ligero)', 'Batería industrial', 'Sistema estacionario de almacenamiento de energía en baterías', 'Pasaporte de la batería original', 'Pasaporte de esta batería en su segunda vida', 'Batería reciclada', 'Esta batería ha sido reciclada', 'Su pasaporte de batería ha dejado de existir (Reglamento (UE) 2023/1542, artículo 77, apartado 8): la batería llegó al final de su vida útil y fue reciclada. El productor no la ha retirado.', 'Información del modelo: esta página describe el modelo de batería, no el pasaporte de una batería concreta. El pasaporte de cada batería se abre desde el código que lleva esa batería.'],
  et: ['Akupass', 'Akupassi avalik teave (määrus (EL) 2023/1542)', 'Jah', 'Ei', 'Üldteave', 'Süsinikujalajälg', 'Tarneahela hoolsuskohustus', 'Materjalide koostis', 'Ringlus', 'Märgistus ja vastavus', 'Toimivus ja vastupidavus', 'Elektrisõiduki aku', 'Kerge transpordivahendi aku', 'Tööstusaku', 'Statsionaarne akuenergia salvestussüsteem', 'Algse aku pass', 'Selle aku pass tema teises elus', 'Aku on ringlusse võetud', 'See aku on ringlusse võetud', 'Akupass on lakanud olemast (määrus (EL) 2023/1542, artikli 77 lõige 8): aku jõudis oma olelusringi lõppu ja võeti ringlusse. Tootja ei ole seda tagasi võtnud.', 'Mudeli teave: see leht kirjeldab akumudelit, mitte üksiku aku passi. Iga aku pass avaneb sellel akul olevast koodist.'],
  fi: ['Akkupassi', 'Akkupassin julkiset tiedot (asetus (EU) 2023/1542)', 'Kyllä', 'Ei', 'Yleiset tiedot', 'Hiilijalanjälki', 'Toimitusketjun due diligence', 'Materiaalikoostumus', 'Kiertotalous', 'Merkinnät ja vaatimustenmukaisuus', 'Suorituskyky ja kestävyys', 'Sähköajoneuvon akku', 'Kevyen liikennevälineen akku', 'Teollisuusakku', 'Kiinteä akkuenergiavarastojärjestelmä', 'Alkuperäisen akun passi', 'Tämän akun passi sen toisessa elämässä', 'Akku kierrätetty', 'Tämä akku on kierrätetty', 'Akkupassi on lakannut olemasta (asetus (EU) 2023/1542, 77 artiklan 8 kohta): akku saavutti elinkaarensa lopun ja se kierrätettiin. Valmistaja ei ole vetänyt sitä pois.', 'Mallin tiedot: tämä sivu kuvaa akkumallia, ei yksittäisen akun passia. Kunkin akun passi avautuu kyseisessä akussa olevasta koodista.'],
  fr: ['Passeport de batterie', 'Informations publiques du passeport de batterie (règlement (UE) 2023/1542)', 'Oui', 'Non', 'Informations générales', 'Empreinte carbone', 'Devoir de diligence dans la chaîne d’approvisionnement', 'Composition des matériaux', 'Circularité', 'Étiquetage et conformité', 'Performance et durabilité', 'Batterie de véhicule électrique', 'Batterie MTL (moyen de transport léger)', 'Batterie industrielle', 'Système stationnaire de stockage d’énergie par batterie', 'Passeport de la batterie d’origine', 'Passeport de cette batterie dans sa seconde vie', 'Batterie recyclée', 'Cette batterie a été recyclée', 'Son passeport de batterie a cessé d’exister (règlement (UE) 2023/1542, article 77, paragraphe 8) : la batterie est arrivée en fin de vie et a été recyclée. Son producteur ne l’a pas retirée.', 'Informations sur le modèle : cette page décrit le modèle de batterie, non le passeport d’une batterie individuelle. Le passeport de chaque batterie s’ouvre depuis le code apposé sur cette batterie.'],
  ga: ['Pas ceallraí', 'Faisnéis phoiblí ó phas an cheallraí (Rialachán (AE) 2023/1542)', 'Tá', 'Níl', 'Faisnéis ghinearálta', 'Lorg carbóin', 'Díchill chuí sa slabhra soláthair', 'Comhdhéanamh ábhar', 'Ciorclaíocht', 'Lipéadú agus comhréireacht', 'Feidhmíocht agus marthanacht', 'Ceallra feithicle leictrí', 'Ceallra LMT (modh iompair éadrom)', 'Ceallra tionsclaíoch', 'Córas stórála fuinnimh ceallraí neamhghluaiste', 'Pas an cheallra bhunaidh', 'Pas an cheallra seo ina dhara saol', 'Ceallra athchúrsáilte', 'Athchúrsáladh an ceallra seo', 'Tá deireadh le pas an cheallra (Rialachán (AE) 2023/1542, Airteagal 77(8)): tháinig an ceallra go deireadh a shaoil agus athchúrsáladh é. Níor tharraing an táirgeoir siar é.', 'Faisnéis faoin tsamhail: déanann an leathanach seo cur síos ar shamhail an cheallra, ní ar phas ceallra aonair. Osclaítear pas gach ceallra ón gcód ar an gceallra sin.'],
  hr: ['Putovnica baterije', 'Javne informacije iz putovnice baterije (Uredba (EU) 2023/1542)', 'Da', 'Ne', 'Opće informacije', 'Ugljični otisak', 'Dužna pažnja u lancu opskrbe', 'Sastav materijala', 'Kružnost', 'Označivanje i sukladnost', 'Učinkovitost i trajnost', 'Baterija za električno vozilo', 'Baterija za LPS (lako prijevozno sredstvo)', 'Industrijska baterija', 'Stacionarni baterijski sustav za pohranu energije', 'Putovnica izvorne baterije', 'Putovnica ove baterije u njezinu drugom životu', 'Baterija reciklirana', 'Ova baterija je reciklirana', 'Putovnica baterije prestala je postojati (Uredba (EU) 2023/1542, članak 77. stavak 8.): baterija je došla do kraja svog životnog vijeka i reciklirana je. Proizvođač je nije povukao.', 'Informacije o modelu: ova stranica opisuje model baterije, a ne putovnicu pojedinačne baterije. Putovnica svake baterije otvara se putem koda na toj bateriji.'],
  hu: ['Akkumulátorútlevél', 'Az akkumulátorútlevél nyilvános adatai ((EU) 2023/1542 rendelet)', 'Igen', 'Nem', 'Általános információk', 'Karbonlábnyom', 'Az ellátási lánc átvilágítása', 'Anyagösszetétel', 'Körforgásos jelleg', 'Címkézés és megfelelőség', 'Teljesítmény és tartósság', 'Elektromos járművek akkumulátora', 'Könnyű közlekedési eszköz akkumulátora', 'Ipari akkumulátor', 'Helyhez kötött akkumulátoros energiatároló rendszer', 'Az eredeti akkumulátor útlevele', 'Ennek az akkumulátornak az útlevele a második életében', 'Újrafeldolgozott akkumulátor', 'Ezt az akkumulátort újrafeldolgozták', 'Az akkumulátorútlevél megszűnt ((EU) 2023/1542 rendelet, 77. cikk (8) bekezdés): az akkumulátor élettartama végére ért, és újrafeldolgozták. A gyártó nem vonta vissza.', 'Modellinformáció: ez az oldal az akkumulátormodellt írja le, nem egy egyedi akkumulátor útlevelét. Minden akkumulátor útlevele az adott akkumulátoron lévő kódról nyitható meg.'],
  it: ['Passaporto della batteria', 'Informazioni pubbliche del passaporto della batteria (regolamento (UE) 2023/1542)', 'Sì', 'No', 'Informazioni generali', 'Impronta di carbonio', 'Dovere di diligenza nella catena di approvvigionamento', 'Composizione dei materiali', 'Circolarità', 'Etichettatura e conformità', 'Prestazioni e durabilità', 'Batteria per veicoli elettrici', 'Batteria per MTL (mezzo di trasporto leggero)', 'Batteria industriale', 'Sistema stazionario di stoccaggio dell’energia a batteria', 'Passaporto della batteria originale', 'Passaporto di questa batteria nella sua seconda vita', 'Batteria riciclata', 'Questa batteria è stata riciclata', 'Il passaporto della batteria ha cessato di esistere (regolamento (UE) 2023/1542, articolo 77, paragrafo 8): la batteria ha raggiunto la fine del suo ciclo di vita ed è stata riciclata. Il produttore non l’ha ritirata.', 'Informazioni sul modello: questa pagina descrive il modello di batteria, non il passaporto di una singola batteria. Il passaporto di ogni batteria si apre dal codice presente su quella batteria.'],
  lt: ['Baterijos pasas', 'Vieša baterijos paso informacija (Reglamentas (ES) 2023/1542)', 'Taip', 'Ne', 'Bendroji informacija', 'Anglies pėdsakas', 'Tiekimo grandinės išsamus patikrinimas', 'Medžiagų sudėtis', 'Žiedinis ciklas', 'Ženklinimas ir atitiktis', 'Veikimo charakteristikos ir patvarumas', 'Elektrinės transporto priemonės baterija', 'LTP (lengvosios transporto priemonės) baterija', 'Pramoninė baterija', 'Stacionarioji baterijų energijos kaupimo sistema', 'Pradinės baterijos pasas', 'Šios baterijos pasas antrajame jos gyvenime', 'Baterija perdirbta', 'Ši baterija buvo perdirbta', 'Baterijos pasas nustojo egzistuoti (Reglamentas (ES) 2023/1542, 77 straipsnio 8 dalis): baterija pasiekė savo gyvavimo ciklo pabaigą ir buvo perdirbta. Gamintojas jos neatšaukė.', 'Modelio informacija: šiame puslapyje aprašomas baterijos modelis, o ne atskiros baterijos pasas. Kiekvienos baterijos pasas atveriamas iš kodo, esančio ant tos baterijos.'],
  lv: ['Baterijas pase', 'Baterijas pases publiskā informācija (Regula (ES) 2023/1542)', 'Jā', 'Nē', 'Vispārīga informācija', 'Oglekļa pēda', 'Piegādes ķēdes pienācīga pārbaude', 'Materiālu sastāvs', 'Aprite', 'Marķējums un atbilstība', 'Veiktspēja un ilgizturība', 'Elektrotransportlīdzekļa baterija', 'VTL (vieglā transportlīdzekļa) baterija', 'Rūpnieciskā baterija', 'Stacionāra bateriju enerģijas uzkrāšanas sistēma', 'Sākotnējās baterijas pase', 'Šīs baterijas pase tās otrajā dzīvē', 'Baterija pārstrādāta', 'Šī baterija ir pārstrādāta', 'Baterijas pase ir beigusi pastāvēt (Regula (ES) 2023/1542, 77. panta 8. punkts): baterija sasniedza sava mūža beigas un tika pārstrādāta. Ražotājs to nav atsaucis.', 'Informācija par modeli: šajā lapā aprakstīts baterijas modelis, nevis atsevišķas baterijas pase. Katras baterijas pasi atver no koda, kas atrodas uz šīs baterijas.'],
  mt: ['Passaport tal-batterija', 'Informazzjoni pubblika tal-passaport tal-batterija (Regolament (UE) 2023/1542)', 'Iva', 'Le', 'Informazzjoni ġenerali', 'Impronta tal-karbonju', 'Diliġenza dovuta fil-katina tal-provvista', 'Kompożizzjoni tal-materjali', 'Ċirkolarità', 'Tikkettar u konformità', 'Prestazzjoni u durabbiltà', 'Batterija ta’ vettura elettrika', 'Batterija LMT (mezz tat-trasport ħafif)', 'Batterija industrijali', 'Sistema stazzjonarja ta’ ħżin tal-enerġija bil-batteriji', 'Passaport tal-batterija oriġinali', 'Passaport ta’ din il-batterija fit-tieni ħajja tagħha', 'Batterija riċiklata', 'Din il-batterija ġiet riċiklata', 'Il-passaport tal-batterija ma għadux jeżisti (Regolament (UE) 2023/1542, Artikolu 77(8)): il-batterija waslet fi tmiem il-ħajja tagħha u ġiet riċiklata. Il-produttur ma rtirahiex.', 'Informazzjoni dwar il-mudell: din il-paġna tiddeskrivi l-mudell tal-batterija, mhux il-passaport ta’ batterija individwali. Il-passaport ta’ kull batterija jinfetaħ mill-kodiċi fuq dik il-batterija.'],
  nl: ['Batterijpaspoort', 'Openbare informatie uit het batterijpaspoort (Verordening (EU) 2023/1542)', 'Ja', 'Nee', 'Algemene informatie', 'Koolstofvoetafdruk', 'Zorgvuldigheid in de toeleveringsketen', 'Materiaalsamenstelling', 'Circulariteit', 'Etikettering en conformiteit', 'Prestaties en duurzaamheid', 'Batterij voor elektrische voertuigen', 'LMT-batterij (licht vervoermiddel)', 'Industriële batterij', 'Stationair batterij-energieopslagsysteem', 'Paspoort van de oorspronkelijke batterij', 'Paspoort van deze batterij in haar tweede leven', 'Batterij gerecycled', 'Deze batterij is gerecycled', 'Het batterijpaspoort bestaat niet meer (Verordening (EU) 2023/1542, artikel 77, lid 8): de batterij heeft het einde van haar levensduur bereikt en is gerecycled. De producent heeft haar niet teruggetrokken.', 'Modelinformatie: deze pagina beschrijft het batterijmodel, niet het paspoort van een afzonderlijke batterij. Het paspoort van elke batterij opent u met de code op die batterij.'],
  pl: ['Paszport baterii', 'Informacje publiczne z paszportu baterii (rozporządzenie (UE) 2023/1542)', 'Tak', 'Nie', 'Informacje ogólne', 'Ślad węglowy', 'Należyta staranność w łańcuchu dostaw', 'Skład materiałowy', 'Obieg zamknięty', 'Oznakowanie i zgodność', 'Wydajność i trwałość', 'Bateria do pojazdów elektrycznych', 'Bateria do LŚT (lekkich środków transportu)', 'Bateria przemysłowa', 'Stacjonarny bateryjny system magazynowania energii', 'Paszport oryginalnej baterii', 'Paszport tej baterii w jej drugim życiu', 'Bateria poddana recyklingowi', 'Ta bateria została poddana recyklingowi', 'Paszport baterii przestał istnieć (rozporządzenie (UE) 2023/1542, art. 77 ust. 8): bateria osiągnęła koniec cyklu życia i została poddana recyklingowi. Producent jej nie wycofał.', 'Informacje o modelu: ta strona opisuje model baterii, a nie paszport pojedynczej baterii. Paszport każdej baterii otwiera się z kodu umieszczonego na tej baterii.'],
  pt: ['Passaporte da bateria', 'Informações públicas do passaporte da bateria (Regulamento (UE) 2023/1542)', 'Sim', 'Não', 'Informações gerais', 'Pegada de carbono', 'Dever de diligência na cadeia de abastecimento', 'Composição dos materiais', 'Circularidade', 'Rotulagem e conformidade', 'Desempenho e durabilidade', 'Bateria de veículo elétrico', 'Bateria de MTL (meio de transporte ligeiro)', 'Bateria industrial', 'Sistema estacionário de armazenamento de energia em baterias', 'Passaporte da bateria original', 'Passaporte desta bateria na sua segunda vida', 'Bateria reciclada', 'Esta bateria foi reciclada', 'O passaporte da bateria deixou de existir (Regulamento (UE) 2023/1542, artigo 77.º, n.º 8): a bateria chegou ao fim da sua vida e foi reciclada. O produtor não a retirou.', 'Informações do modelo: esta página descreve o modelo de bateria, não o passaporte de uma bateria individual. O passaporte de cada bateria abre-se a partir do código aposto nessa bateria.'],
  ro: ['Pașaportul bateriei', 'Informații publice din pașaportul bateriei (Regulamentul (UE) 2023/1542)', 'Da', 'Nu', 'Informații generale', 'Amprenta de carbon', 'Diligența necesară în lanțul de aprovizionare', 'Compoziția materialelor', 'Circularitate', 'Etichetare și conformitate', 'Performanță și durabilitate', 'Baterie pentru vehicule electrice', 'Baterie MTU (mijloc de transport ușor)', 'Baterie industrială', 'Sistem staționar de stocare a energiei în baterii', 'Pașaportul bateriei originale', 'Pașaportul acestei baterii în a doua sa viață', 'Baterie reciclată', 'Această baterie a fost reciclată', 'Pașaportul bateriei a încetat să existe (Regulamentul (UE) 2023/1542, articolul 77 alineatul (8)): bateria a ajuns la sfârșitul duratei de viață și a fost reciclată. Producătorul nu a retras-o.', 'Informații despre model: această pagină descrie modelul de baterie, nu pașaportul unei baterii individuale. Pașaportul fiecărei baterii se deschide din codul de pe bateria respectivă.'],
  sk: ['Pas batérie', 'Verejné informácie z pasu batérie (nariadenie (EÚ) 2023/1542)', 'Áno', 'Nie', 'Všeobecné informácie', 'Uhlíková stopa', 'Náležitá starostlivosť v dodávateľskom reťazci', 'Materiálové zloženie', 'Obehovosť', 'Označovanie a zhoda', 'Výkon a životnosť', 'Batéria elektrického vozidla', 'Batéria ĽDP (ľahkého dopravného prostriedku)', 'Priemyselná batéria', 'Stacionárny batériový systém na uchovávanie energie', 'Pas pôvodnej batérie', 'Pas tejto batérie v jej druhom živote', 'Batéria recyklovaná', 'Táto batéria bola recyklovaná', 'Pas batérie prestal existovať (nariadenie (EÚ) 2023/1542, článok 77 ods. 8): batéria dosiahla koniec svojej životnosti a bola recyklovaná. Výrobca ju nestiahol.', 'Informácie o modeli: táto stránka opisuje model batérie, nie pas jednotlivej batérie. Pas každej batérie sa otvára z kódu na danej batérii.'],
  sl: ['Potni list baterije', 'Javni podatki iz potnega lista baterije (Uredba (EU) 2023/1542)', 'Da', 'Ne', 'Splošni podatki', 'Ogljični odtis', 'Potrebna skrbnost v dobavni verigi', 'Sestava materialov', 'Krožnost', 'Označevanje in skladnost', 'Zmogljivost in trajnost', 'Baterija za električna vozila', 'Baterija za LPS (lahko prevozno sredstvo)', 'Industrijska baterija', 'Stacionarni baterijski sistem za shranjevanje energije', 'Potni list izvirne baterije', 'Potni list te baterije v njenem drugem življenju', 'Baterija reciklirana', 'Ta baterija je bila reciklirana', 'Potni list baterije je prenehal obstajati (Uredba (EU) 2023/1542, člen 77(8)): baterija je dosegla konec svoje življenjske dobe in je bila reciklirana. Proizvajalec je ni umaknil.', 'Podatki o modelu: ta stran opisuje model baterije, ne potnega lista posamezne baterije. Potni list vsake baterije se odpre s kodo na tej bateriji.'],
  sv: ['Batteripass', 'Offentlig information i batteripasset (förordning (EU) 2023/1542)', 'Ja', 'Nej', 'Allmän information', 'Koldioxidavtryck', 'Tillbörlig aktsamhet i leveranskedjan', 'Materialsammansättning', 'Cirkularitet', 'Märkning och överensstämmelse', 'Prestanda och hållbarhet', 'Batteri för elfordon', 'LMT-batteri (lätta transportmedel)', 'Industribatteri', 'Stationärt batterisystem för energilagring', 'Pass för det ursprungliga batteriet', 'Pass för detta batteri i dess andra liv', 'Batteriet har återvunnits', 'Detta batteri har återvunnits', 'Batteripasset har upphört att existera (förordning (EU) 2023/1542, artikel 77.8): batteriet nådde slutet av sin livslängd och återvanns. Tillverkaren har inte dragit tillbaka det.', 'Modellinformation: den här sidan beskriver batterimodellen, inte passet för ett enskilt batteri. Varje batteris pass öppnas från koden på just det batteriet.'],
};

/** The page's words of one language, by key (test/unit/battery-page.test.ts checks all 24 are complete). */
export function pageWords(lang: Lang): Readonly<Record<PageKey, string>> {
  const words = WORDS[lang];
  return Object.fromEntries(PAGE_KEYS.map((key, index) => [key, words[index] ?? WORDS.en[index]])) as Record<PageKey, string>;
}

/** The languages the page's words are written in: all 24. */
export const PAGE_LANGUAGES = Object.keys(WORDS) as Lang[];

export const categoryWord = (category: BatteryCategory): PageKey => `category_${category}`;

/** The languages the names of elements, members and values are written in. */
export const NAME_LANGUAGES = ['en', 'de', 'fr'] as const;
type NameLang = (typeof NAME_LANGUAGES)[number];
type Names = Readonly<Record<string, Readonly<Record<NameLang, string>>>>;

/**
 * The names of the public elements (by element path; the English one as the element map has it,
 * lib/domain/battery/element-map.ts). Elements no public reader sees have no entry: the page
 * never shows them.
 */
export const ELEMENT_NAMES: Names = {
  'generalProductInformation.productIdentifier': { en: 'Battery identifier', de: 'Batteriekennung', fr: 'Identifiant de la batterie' },
  'generalProductInformation.batteryPassportIdentifier': { en: 'Battery passport identifier', de: 'Kennung des Batteriepasses', fr: 'Identifiant du passeport de batterie' },
  'generalProductInformation.batteryCategory': { en: 'Battery category', de: 'Batteriekategorie', fr: 'Catégorie de batterie' },
  'generalProductInformation.manufacturerInformation': { en: 'Manufacturer', de: 'Hersteller', fr: 'Fabricant' },
  'generalProductInformation.manufacturingDate': { en: 'Manufacturing date', de: 'Herstellungsdatum', fr: 'Date de fabrication' },
  'generalProductInformation.batteryMass': { en: 'Battery mass', de: 'Gewicht der Batterie', fr: 'Masse de la batterie' },
  'generalProductInformation.manufacturingPlace': { en: 'Manufacturing place', de: 'Herstellungsort', fr: 'Lieu de fabrication' },
  'generalProductInformation.operatorInformation': { en: 'Economic operator', de: 'Wirtschaftsakteur', fr: 'Opérateur économique' },
  'generalProductInformation.warrentyPeriod': { en: 'Commercial warranty period', de: 'Dauer der gewerblichen Garantie', fr: 'Durée de la garantie commerciale' },
  'generalProductInformation.commercialWarrantyPeriod': {
    en: 'Commercial warranty period (years and months)',
    de: 'Dauer der gewerblichen Garantie (Jahre und Monate)',
    fr: 'Durée de la garantie commerciale (années et mois)',
  },
  'carbonFootprint.batteryCarbonFootprint': { en: 'Carbon footprint per functional unit', de: 'CO₂-Fußabdruck je funktioneller Einheit', fr: 'Empreinte carbone par unité fonctionnelle' },
  'carbonFootprint.carbonFootprintPerLifecycleStage': { en: 'Carbon footprint per life cycle stage', de: 'CO₂-Fußabdruck je Lebenszyklusphase', fr: 'Empreinte carbone par étape du cycle de vie' },
  'carbonFootprint.carbonFootprintPerformanceClass': { en: 'Carbon footprint performance class', de: 'Leistungsklasse des CO₂-Fußabdrucks', fr: 'Classe de performance en matière d’empreinte carbone' },
  'carbonFootprint.carbonFootprintStudy': { en: 'Carbon footprint study', de: 'Studie zum CO₂-Fußabdruck', fr: 'Étude sur l’empreinte carbone' },
  'carbonFootprint.absoluteCarbonFootprint': { en: 'Absolute carbon footprint', de: 'Absoluter CO₂-Fußabdruck', fr: 'Empreinte carbone absolue' },
  'supplyChainDueDiligence.supplyChainDueDiligenceReport': { en: 'Due diligence report', de: 'Bericht über die Sorgfaltspflichten', fr: 'Rapport sur le devoir de diligence' },
  'supplyChainDueDiligence.thirdPartyAussurances': { en: 'Third-party supply chain assurances', de: 'Prüfungen der Lieferkette durch Dritte', fr: 'Vérifications de la chaîne d’approvisionnement par des tiers' },
  'supplyChainDueDiligence.supplyChainIndicies': { en: 'Supply chain indices', de: 'Lieferkettenindizes', fr: 'Indices de la chaîne d’approvisionnement' },
  'materialComposition.batteryChemistry': { en: 'Battery chemistry', de: 'Batteriechemie', fr: 'Chimie de la batterie' },
  'materialComposition.hazardousSubstances': { en: 'Hazardous substances', de: 'Gefährliche Stoffe', fr: 'Substances dangereuses' },
  'materialComposition.criticalRawMaterials': { en: 'Critical raw materials', de: 'Kritische Rohstoffe', fr: 'Matières premières critiques' },
  'circularity.recycledContent': { en: 'Recycled content', de: 'Rezyklatanteil', fr: 'Contenu recyclé' },
  'circularity.safetyMeasures.extinguishingAgent': { en: 'Usable extinguishing agent', de: 'Verwendbares Löschmittel', fr: 'Agent extincteur utilisable' },
  'circularity.endOfLifeInformation': { en: 'Waste prevention and end-of-life information', de: 'Abfallvermeidung und Informationen zum Lebensende', fr: 'Prévention des déchets et informations sur la fin de vie' },
  'circularity.wasteBatterySafetyInstructions': {
    en: 'Safety instructions for handling waste batteries',
    de: 'Sicherheitsanweisungen für die Handhabung von Altbatterien',
    fr: 'Consignes de sécurité pour la manipulation des déchets de batteries',
  },
  'circularity.renewableContent': { en: 'Renewable content share', de: 'Anteil erneuerbarer Stoffe', fr: 'Part de contenu renouvelable' },
  'labeling.declarationOfConformity': { en: 'EU declaration of conformity', de: 'EU-Konformitätserklärung', fr: 'Déclaration UE de conformité' },
  'labeling.labels': { en: 'Labels and symbols and their meaning', de: 'Kennzeichnungen, Symbole und ihre Bedeutung', fr: 'Étiquettes, symboles et leur signification' },
  'performanceAndDurability.batteryTechicalProperties.originalPowerCapability': { en: 'Original power capability', de: 'Ursprüngliche Leistungsfähigkeit', fr: 'Capacité de puissance initiale' },
  'performanceAndDurability.batteryTechicalProperties.ratedMaximumPower': { en: 'Maximum permitted power (power limits)', de: 'Höchstzulässige Leistung (Leistungsgrenzen)', fr: 'Puissance maximale autorisée (limites de puissance)' },
  'performanceAndDurability.batteryTechicalProperties.powerCapabilityRatio': { en: 'Ratio of nominal power to energy', de: 'Verhältnis von Nennleistung zu Energie', fr: 'Rapport entre puissance nominale et énergie' },
  'performanceAndDurability.batteryTechicalProperties.ratedEnergy': { en: 'Certified usable battery energy', de: 'Zertifizierte nutzbare Batterieenergie', fr: 'Énergie utilisable certifiée de la batterie' },
  'performanceAndDurability.batteryTechicalProperties.expectedNumberOfCycles': { en: 'Expected lifetime in cycles', de: 'Erwartete Lebensdauer in Zyklen', fr: 'Durée de vie prévue en cycles' },
  'performanceAndDurability.batteryTechicalProperties.roundtripEfficiency': { en: 'Initial round trip energy efficiency', de: 'Anfängliche Round-Trip-Energieeffizienz', fr: 'Rendement énergétique aller-retour initial' },
  'performanceAndDurability.batteryTechicalProperties.ratedCapacity': { en: 'Rated capacity', de: 'Nennkapazität', fr: 'Capacité nominale' },
  'performanceAndDurability.batteryTechicalProperties.initialInternalResistance': { en: 'Internal resistance of cell and pack', de: 'Innenwiderstand von Zelle und Batteriesatz', fr: 'Résistance interne de la cellule et du bloc' },
  'performanceAndDurability.batteryTechicalProperties.cRate': { en: 'C-rate (nominal power to energy)', de: 'C-Rate (Nennleistung zu Energie)', fr: 'Régime C (puissance nominale sur énergie)' },
  'performanceAndDurability.batteryTechicalProperties.nominalVoltage': { en: 'Nominal voltage', de: 'Nennspannung', fr: 'Tension nominale' },
  'performanceAndDurability.batteryTechicalProperties.minimumVoltage': { en: 'Minimum voltage', de: 'Mindestspannung', fr: 'Tension minimale' },
  'performanceAndDurability.batteryTechicalProperties.maximumVoltage': { en: 'Maximum voltage', de: 'Höchstspannung', fr: 'Tension maximale' },
  'performanceAndDurability.batteryTechicalProperties.capacityThresholdForExhaustion': { en: 'Capacity threshold for exhaustion', de: 'Kapazitätsschwelle für die Erschöpfung', fr: 'Seuil de capacité d’épuisement' },
  'performanceAndDurability.batteryTechicalProperties.lifetimeReferenceTest': { en: 'Cycle-life reference test', de: 'Referenzprüfung der Zyklenlebensdauer', fr: 'Essai de référence de la durée de vie en cycles' },
  'performanceAndDurability.batteryTechicalProperties.cRateLifeCycleTest': { en: 'C-rate of the cycle-life test', de: 'C-Rate der Zyklenlebensdauerprüfung', fr: 'Régime C de l’essai de durée de vie en cycles' },
  'performanceAndDurability.batteryTechicalProperties.temperatureRangeIdleState': { en: 'Temperature range when not in use', de: 'Temperaturbereich bei Nichtgebrauch', fr: 'Plage de températures hors utilisation' },
  'performanceAndDurability.batteryTechicalProperties.roundTripEfficiencyat50PerCentCycleLife': {
    en: 'Round trip energy efficiency at 50 % of cycle life',
    de: 'Round-Trip-Energieeffizienz bei 50 % der Zyklenlebensdauer',
    fr: 'Rendement énergétique aller-retour à 50 % de la durée de vie en cycles',
  },
};

/** The names of the members inside public elements (a contact's name, a stage's footprint, …), by the data model's member name. */
export const FIELD_NAMES: Names = {
  contactName: { en: 'Name', de: 'Name', fr: 'Nom' },
  postalAddress: { en: 'Postal address', de: 'Postanschrift', fr: 'Adresse postale' },
  addressCountry: { en: 'Country', de: 'Land', fr: 'Pays' },
  postalCode: { en: 'Postal code', de: 'Postleitzahl', fr: 'Code postal' },
  streetAddress: { en: 'Street', de: 'Straße', fr: 'Rue' },
  identifier: { en: 'Identifier', de: 'Kennung', fr: 'Identifiant' },
  emailAddress: { en: 'E-mail', de: 'E-Mail', fr: 'Courriel' },
  webAddress: { en: 'Website', de: 'Website', fr: 'Site web' },
  lifecycleStage: { en: 'Life cycle stage', de: 'Lebenszyklusphase', fr: 'Étape du cycle de vie' },
  carbonFootprint: { en: 'Carbon footprint', de: 'CO₂-Fußabdruck', fr: 'Empreinte carbone' },
  shortName: { en: 'Short name', de: 'Kurzbezeichnung', fr: 'Nom abrégé' },
  clearName: { en: 'Full name', de: 'Vollständige Bezeichnung', fr: 'Nom complet' },
  hazardousSubstanceClass: { en: 'Hazard class', de: 'Gefahrenklasse', fr: 'Classe de danger' },
  hazardousSubstanceName: { en: 'Substance', de: 'Stoff', fr: 'Substance' },
  hazardousSubstanceConcentration: { en: 'Concentration', de: 'Konzentration', fr: 'Concentration' },
  hazardousSubstanceImpact: { en: 'Effects', de: 'Wirkungen', fr: 'Effets' },
  hazardousSubstanceLocation: { en: 'Location in the battery', de: 'Ort in der Batterie', fr: 'Emplacement dans la batterie' },
  hazardousSubstanceIdentifier: { en: 'CAS number', de: 'CAS-Nummer', fr: 'Numéro CAS' },
  componentName: { en: 'Component', de: 'Bauteil', fr: 'Composant' },
  criticalRawMaterialName: { en: 'Material', de: 'Material', fr: 'Matière' },
  criticalRawMaterialConcentration: { en: 'Share of the battery’s mass', de: 'Anteil am Gewicht der Batterie', fr: 'Part de la masse de la batterie' },
  componentId: { en: 'Component identifier', de: 'Bauteilkennung', fr: 'Identifiant du composant' },
  preConsumerShare: { en: 'Pre-consumer share', de: 'Anteil aus Produktionsabfällen', fr: 'Part pré-consommation' },
  recycledMaterial: { en: 'Material', de: 'Material', fr: 'Matière' },
  postConsumerShare: { en: 'Post-consumer share', de: 'Anteil aus Verbraucherabfällen', fr: 'Part post-consommation' },
  wastePrevention: { en: 'Waste prevention', de: 'Abfallvermeidung', fr: 'Prévention des déchets' },
  separateCollection: { en: 'Separate collection', de: 'Getrennte Sammlung', fr: 'Collecte séparée' },
  informationOnCollection: { en: 'Collection, take-back and recycling', de: 'Sammlung, Rücknahme und Recycling', fr: 'Collecte, reprise et recyclage' },
  labelingSymbol: { en: 'Symbol', de: 'Symbol', fr: 'Symbole' },
  labelingMeaning: { en: 'Meaning', de: 'Bedeutung', fr: 'Signification' },
  labelingSubject: { en: 'Subject', de: 'Gegenstand', fr: 'Objet' },
  atSoC: { en: 'At state of charge', de: 'Bei Ladezustand', fr: 'À l’état de charge' },
  powerCapabilityAt: { en: 'Power capability', de: 'Leistungsfähigkeit', fr: 'Capacité de puissance' },
  ohmicResistance: { en: 'Resistance', de: 'Widerstand', fr: 'Résistance' },
  batteryComponent: { en: 'Part of the battery', de: 'Teil der Batterie', fr: 'Partie de la batterie' },
  minimum: { en: 'Minimum', de: 'Minimum', fr: 'Minimum' },
  maximum: { en: 'Maximum', de: 'Maximum', fr: 'Maximum' },
};

/** The names of the enumerations' values that public elements hold, by the data model's value. */
export const VALUE_NAMES: Names = {
  RawMaterialExtraction: { en: 'Raw material extraction and pre-processing', de: 'Rohstoffgewinnung und Vorverarbeitung', fr: 'Extraction et prétraitement des matières premières' },
  MainProduction: { en: 'Main product production', de: 'Hauptproduktion', fr: 'Production du produit principal' },
  Distribution: { en: 'Distribution', de: 'Vertrieb', fr: 'Distribution' },
  Recycling: { en: 'End of life and recycling', de: 'Lebensende und Recycling', fr: 'Fin de vie et recyclage' },
  AcuteToxicity: { en: 'Acute toxicity', de: 'Akute Toxizität', fr: 'Toxicité aiguë' },
  SkinCorrosionOrIrritation: { en: 'Skin corrosion or irritation', de: 'Ätz- oder Reizwirkung auf die Haut', fr: 'Corrosion ou irritation cutanée' },
  EyeDamageOrIrritation: { en: 'Serious eye damage or eye irritation', de: 'Schwere Augenschädigung oder Augenreizung', fr: 'Lésions oculaires graves ou irritation oculaire' },
  Cobalt: { en: 'Cobalt', de: 'Kobalt', fr: 'Cobalt' },
  Nickel: { en: 'Nickel', de: 'Nickel', fr: 'Nickel' },
  Lithium: { en: 'Lithium', de: 'Lithium', fr: 'Lithium' },
  Lead: { en: 'Lead', de: 'Blei', fr: 'Plomb' },
  SeparateCollection: { en: 'Separate collection', de: 'Getrennte Sammlung', fr: 'Collecte séparée' },
  HazardousMaterial: { en: 'Hazardous substances', de: 'Gefährliche Stoffe', fr: 'Substances dangereuses' },
  CarbonFootPrint: { en: 'Carbon footprint', de: 'CO₂-Fußabdruck', fr: 'Empreinte carbone' },
  ExtinguishingAgent: { en: 'Extinguishing agent', de: 'Löschmittel', fr: 'Agent extincteur' },
  pack: { en: 'Battery pack', de: 'Batteriesatz', fr: 'Bloc-batterie' },
  module: { en: 'Module', de: 'Modul', fr: 'Module' },
  cell: { en: 'Cell', de: 'Zelle', fr: 'Cellule' },
};

/**
 * A name in the page's language, or in English with `lang: 'en'` when it has none in that language;
 * undefined when the table has no entry at all.
 */
export function nameIn(table: Names, key: string, lang: Lang): { text: string; lang?: 'en' } | undefined {
  if (!Object.hasOwn(table, key)) return undefined;
  const names = table[key] as Readonly<Record<NameLang, string>>;
  if ((NAME_LANGUAGES as readonly string[]).includes(lang)) return { text: names[lang as NameLang] };
  return lang === 'en' ? { text: names.en } : { text: names.en, lang: 'en' };
}

/** The units of the numbers of public elements (SI symbols, the same in every language; the data model names none: docs/battery.md). */
export const UNITS: Readonly<Record<string, string>> = {
  batteryMass: 'kg',
  batteryCarbonFootprint: 'kg CO₂e/kWh',
  carbonFootprint: 'kg CO₂e/kWh',
  absoluteCarbonFootprint: 'kg CO₂e',
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
