import type { Lang } from './i18n.ts';

/**
 * The texts of the page a scan gets while a service the resolver depends on is down (503,
 * docs/resolver.md#when-a-dependency-is-down), in the e-label's 24 languages. They are our own
 * wording, no legal term, and carry no source; every language but English is our translation,
 * not yet reviewed by a native speaker (unconfirmed).
 */
export interface UnavailableTexts {
  title: string;
  heading: string;
  body: string;
  hint: string;
}

export const UNAVAILABLE_TEXTS: Readonly<Record<Lang, UnavailableTexts>> = {
  bg: { title: 'Временно недостъпно', heading: 'Тази страница е временно недостъпна', body: 'Информацията за продукта не можа да бъде заредена в момента.', hint: 'Моля, опитайте отново след няколко секунди.' },
  cs: { title: 'Dočasně nedostupné', heading: 'Tato stránka je dočasně nedostupná', body: 'Informace o produktu se teď nepodařilo načíst.', hint: 'Zkuste to prosím znovu za několik sekund.' },
  da: { title: 'Midlertidigt utilgængelig', heading: 'Denne side er midlertidigt utilgængelig', body: 'Produktoplysningerne kunne ikke indlæses lige nu.', hint: 'Prøv igen om et par sekunder.' },
  de: { title: 'Vorübergehend nicht verfügbar', heading: 'Diese Seite ist vorübergehend nicht verfügbar', body: 'Die Produktinformationen konnten gerade nicht geladen werden.', hint: 'Bitte versuchen Sie es in einigen Sekunden erneut.' },
  el: { title: 'Προσωρινά μη διαθέσιμο', heading: 'Αυτή η σελίδα δεν είναι προσωρινά διαθέσιμη', body: 'Δεν ήταν δυνατή η φόρτωση των πληροφοριών του προϊόντος αυτή τη στιγμή.', hint: 'Δοκιμάστε ξανά σε λίγα δευτερόλεπτα.' },
  en: { title: 'Temporarily unavailable', heading: 'This page is temporarily unavailable', body: 'The product information could not be loaded just now.', hint: 'Please try again in a few seconds.' },
  es: { title: 'No disponible temporalmente', heading: 'Esta página no está disponible temporalmente', body: 'No se ha podido cargar la información del producto en este momento.', hint: 'Vuelva a intentarlo dentro de unos segundos.' },
  et: { title: 'Ajutiselt kättesaamatu', heading: 'See lehekülg on ajutiselt kättesaamatu', body: 'Tooteteavet ei õnnestunud praegu laadida.', hint: 'Palun proovige mõne sekundi pärast uuesti.' },
  fi: { title: 'Tilapäisesti poissa käytöstä', heading: 'Tämä sivu ei ole tilapäisesti käytettävissä', body: 'Tuotetietoja ei voitu ladata juuri nyt.', hint: 'Yritä uudelleen muutaman sekunnin kuluttua.' },
  fr: { title: 'Temporairement indisponible', heading: 'Cette page est temporairement indisponible', body: 'Les informations sur le produit n’ont pas pu être chargées pour le moment.', hint: 'Veuillez réessayer dans quelques secondes.' },
  ga: { title: 'Níl sé ar fáil faoi láthair', heading: 'Níl an leathanach seo ar fáil faoi láthair', body: 'Níorbh fhéidir faisnéis an táirge a lódáil díreach anois.', hint: 'Bain triail eile as i gceann cúpla soicind.' },
  hr: { title: 'Privremeno nedostupno', heading: 'Ova stranica privremeno nije dostupna', body: 'Informacije o proizvodu trenutačno se nisu mogle učitati.', hint: 'Pokušajte ponovno za nekoliko sekundi.' },
  hu: { title: 'Átmenetileg nem érhető el', heading: 'Ez az oldal átmenetileg nem érhető el', body: 'A termékinformációkat most nem sikerült betölteni.', hint: 'Kérjük, próbálja újra néhány másodperc múlva.' },
  it: { title: 'Temporaneamente non disponibile', heading: 'Questa pagina è temporaneamente non disponibile', body: 'Non è stato possibile caricare le informazioni sul prodotto in questo momento.', hint: 'Riprova tra qualche secondo.' },
  lt: { title: 'Laikinai nepasiekiama', heading: 'Šis puslapis laikinai nepasiekiamas', body: 'Šiuo metu nepavyko įkelti informacijos apie produktą.', hint: 'Bandykite dar kartą po kelių sekundžių.' },
  lv: { title: 'Īslaicīgi nav pieejams', heading: 'Šī lapa īslaicīgi nav pieejama', body: 'Informāciju par produktu pašlaik neizdevās ielādēt.', hint: 'Lūdzu, mēģiniet vēlreiz pēc dažām sekundēm.' },
  mt: { title: 'Mhux disponibbli temporanjament', heading: 'Din il-paġna mhijiex disponibbli temporanjament', body: 'L-informazzjoni dwar il-prodott ma setgħetx titgħabba issa.', hint: 'Jekk jogħġbok erġa’ pprova fi ftit sekondi.' },
  nl: { title: 'Tijdelijk niet beschikbaar', heading: 'Deze pagina is tijdelijk niet beschikbaar', body: 'De productinformatie kon op dit moment niet worden geladen.', hint: 'Probeer het over enkele seconden opnieuw.' },
  pl: { title: 'Chwilowo niedostępne', heading: 'Ta strona jest chwilowo niedostępna', body: 'Nie udało się teraz wczytać informacji o produkcie.', hint: 'Spróbuj ponownie za kilka sekund.' },
  pt: { title: 'Temporariamente indisponível', heading: 'Esta página está temporariamente indisponível', body: 'Não foi possível carregar as informações do produto neste momento.', hint: 'Tente novamente dentro de alguns segundos.' },
  ro: { title: 'Temporar indisponibil', heading: 'Această pagină este temporar indisponibilă', body: 'Informațiile despre produs nu au putut fi încărcate acum.', hint: 'Vă rugăm să încercați din nou în câteva secunde.' },
  sk: { title: 'Dočasne nedostupné', heading: 'Táto stránka je dočasne nedostupná', body: 'Informácie o výrobku sa teraz nepodarilo načítať.', hint: 'Skúste to znova o niekoľko sekúnd.' },
  sl: { title: 'Začasno nedosegljivo', heading: 'Ta stran je začasno nedosegljiva', body: 'Podatkov o izdelku trenutno ni bilo mogoče naložiti.', hint: 'Poskusite znova čez nekaj sekund.' },
  sv: { title: 'Tillfälligt otillgänglig', heading: 'Den här sidan är tillfälligt otillgänglig', body: 'Produktinformationen kunde inte läsas in just nu.', hint: 'Försök igen om några sekunder.' },
};

/**
 * The texts of the page a withdrawn battery's Digital Link answers (410; renderBatteryWithdrawn,
 * battery.ts): withdrawal is its producer's, for a mistake or a recall (docs/lifecycle.md#withdrawal),
 * and says so, unlike the page of a recycled battery, whose passport ceased at the end of its life
 * (docs/battery.md#a-batterys-life). Our own wording, no legal term; every language but English is
 * our translation, unconfirmed (docs/battery.md#what-is-unconfirmed).
 */
export const WITHDRAWN_BATTERY_TEXTS: Readonly<Record<Lang, UnavailableTexts>> = {
  bg: { title: 'Паспортът на батерията е оттеглен', heading: 'Този паспорт на батерията е оттеглен', body: 'Производителят го е оттеглил поради грешка или изземване.', hint: 'Тази батерия не е рециклирана: паспортът на рециклирана батерия завършва със собствена страница. За въпроси относно батерията се обърнете към нейния производител или продавач.' },
  cs: { title: 'Pas baterie stažen', heading: 'Tento pas baterie byl stažen', body: 'Výrobce jej stáhl kvůli chybě nebo svolávací akci.', hint: 'Tato baterie nebyla recyklována: pas recyklované baterie končí vlastní stránkou. S dotazy k baterii se obraťte na jejího výrobce nebo prodejce.' },
  da: { title: 'Batteripas trukket tilbage', heading: 'Dette batteripas er trukket tilbage', body: 'Producenten har trukket det tilbage på grund af en fejl eller en tilbagekaldelse.', hint: 'Batteriet er ikke genanvendt: passet for et genanvendt batteri slutter med sin egen side. Kontakt batteriets producent eller forhandler, hvis du har spørgsmål om batteriet.' },
  de: { title: 'Batteriepass zurückgezogen', heading: 'Dieser Batteriepass wurde zurückgezogen', body: 'Sein Hersteller hat ihn zurückgezogen, wegen eines Fehlers oder eines Rückrufs.', hint: 'Diese Batterie wurde nicht recycelt: Der Pass einer recycelten Batterie endet mit einer eigenen Seite. Bei Fragen zur Batterie wenden Sie sich an ihren Hersteller oder Verkäufer.' },
  el: { title: 'Το διαβατήριο μπαταρίας αποσύρθηκε', heading: 'Αυτό το διαβατήριο μπαταρίας έχει αποσυρθεί', body: 'Ο παραγωγός του το απέσυρε λόγω σφάλματος ή ανάκλησης.', hint: 'Η μπαταρία δεν έχει ανακυκλωθεί: το διαβατήριο μιας ανακυκλωμένης μπαταρίας τελειώνει με δική του σελίδα. Για ερωτήσεις σχετικά με την μπαταρία, επικοινωνήστε με τον παραγωγό ή τον πωλητή της.' },
  en: { title: 'Battery passport withdrawn', heading: 'This battery passport has been withdrawn', body: 'Its producer has withdrawn it, for a mistake or a recall.', hint: 'This battery has not been recycled: the passport of a recycled battery ends with a page of its own. For questions about the battery, contact its producer or seller.' },
  es: { title: 'Pasaporte de la batería retirado', heading: 'Este pasaporte de la batería ha sido retirado', body: 'Su productor lo ha retirado por un error o una recuperación.', hint: 'Esta batería no ha sido reciclada: el pasaporte de una batería reciclada termina con una página propia. Para cualquier consulta sobre la batería, diríjase a su productor o vendedor.' },
  et: { title: 'Akupass on tagasi võetud', heading: 'See akupass on tagasi võetud', body: 'Tootja võttis selle tagasi vea või tagasikutsumise tõttu.', hint: 'Seda akut ei ole ringlusse võetud: ringlusse võetud aku passi lõpetab eraldi lehekülg. Aku kohta küsimuste korral pöörduge selle tootja või müüja poole.' },
  fi: { title: 'Akkupassi peruttu', heading: 'Tämä akkupassi on peruttu', body: 'Valmistaja perui sen virheen tai takaisinvedon vuoksi.', hint: 'Akkua ei ole kierrätetty: kierrätetyn akun passi päättyy omaan sivuunsa. Jos sinulla on kysyttävää akusta, ota yhteyttä sen valmistajaan tai myyjään.' },
  fr: { title: 'Passeport de batterie retiré', heading: 'Ce passeport de batterie a été retiré', body: 'Son producteur l’a retiré, à la suite d’une erreur ou d’un rappel.', hint: 'Cette batterie n’a pas été recyclée\u00a0: le passeport d’une batterie recyclée se termine par une page qui lui est propre. Pour toute question sur la batterie, adressez-vous à son producteur ou à son vendeur.' },
  ga: { title: 'Pas ceallra tarraingthe siar', heading: 'Tarraingíodh siar an pas ceallra seo', body: 'Tharraing a tháirgeoir siar é, de bharr botúin nó aisghairme.', hint: 'Níor athchúrsáladh an ceallra seo: críochnaíonn pas ceallra athchúrsáilte le leathanach dá chuid féin. Má tá ceisteanna agat faoin gceallra, déan teagmháil lena tháirgeoir nó lena dhíoltóir.' },
  hr: { title: 'Putovnica baterije povučena', heading: 'Ova putovnica baterije povučena je', body: 'Proizvođač ju je povukao zbog pogreške ili opoziva.', hint: 'Ova baterija nije reciklirana: putovnica reciklirane baterije završava vlastitom stranicom. Za pitanja o bateriji obratite se njezinu proizvođaču ili prodavatelju.' },
  hu: { title: 'Akkumulátorútlevél visszavonva', heading: 'Ezt az akkumulátorútlevelet visszavonták', body: 'A gyártója hiba vagy termékvisszahívás miatt visszavonta.', hint: 'Ezt az akkumulátort nem dolgozták fel újra: az újrafeldolgozott akkumulátor útlevele saját oldallal zárul. Az akkumulátorral kapcsolatos kérdéseivel forduljon a gyártójához vagy az eladóhoz.' },
  it: { title: 'Passaporto della batteria ritirato', heading: 'Questo passaporto della batteria è stato ritirato', body: 'Il produttore lo ha ritirato per un errore o un richiamo.', hint: 'Questa batteria non è stata riciclata: il passaporto di una batteria riciclata termina con una pagina propria. Per domande sulla batteria, rivolgersi al suo produttore o venditore.' },
  lt: { title: 'Baterijos pasas atšauktas', heading: 'Šis baterijos pasas atšauktas', body: 'Gamintojas jį atšaukė dėl klaidos arba gaminio atšaukimo.', hint: 'Ši baterija nebuvo perdirbta: perdirbtos baterijos pasas baigiasi atskiru puslapiu. Kilus klausimų dėl baterijos, kreipkitės į jos gamintoją arba pardavėją.' },
  lv: { title: 'Baterijas pase atsaukta', heading: 'Šī baterijas pase ir atsaukta', body: 'Ražotājs to atsauca kļūdas vai produkta atsaukšanas dēļ.', hint: 'Šī baterija nav pārstrādāta: pārstrādātas baterijas pase beidzas ar atsevišķu lapu. Ja jums ir jautājumi par bateriju, sazinieties ar tās ražotāju vai pārdevēju.' },
  mt: { title: 'Passaport tal-batterija rtirat', heading: 'Dan il-passaport tal-batterija ġie rtirat', body: 'Il-produttur tiegħu rtirah minħabba żball jew sejħa lura.', hint: 'Din il-batterija ma ġietx riċiklata: il-passaport ta’ batterija riċiklata jispiċċa b’paġna tiegħu stess. Għal mistoqsijiet dwar il-batterija, ikkuntattja lill-produttur jew lill-bejjiegħ tagħha.' },
  nl: { title: 'Batterijpaspoort ingetrokken', heading: 'Dit batterijpaspoort is ingetrokken', body: 'De producent heeft het ingetrokken wegens een fout of een terugroepactie.', hint: 'Deze batterij is niet gerecycled: het paspoort van een gerecyclede batterij eindigt met een eigen pagina. Neem voor vragen over de batterij contact op met de producent of de verkoper.' },
  pl: { title: 'Paszport baterii wycofany', heading: 'Ten paszport baterii został wycofany', body: 'Producent wycofał go z powodu błędu lub akcji przywołania produktu.', hint: 'Ta bateria nie została poddana recyklingowi: paszport baterii poddanej recyklingowi kończy się własną stroną. W sprawie baterii prosimy kontaktować się z jej producentem lub sprzedawcą.' },
  pt: { title: 'Passaporte da bateria retirado', heading: 'Este passaporte da bateria foi retirado', body: 'O produtor retirou-o devido a um erro ou a uma recolha.', hint: 'Esta bateria não foi reciclada: o passaporte de uma bateria reciclada termina com uma página própria. Para questões sobre a bateria, contacte o produtor ou o vendedor.' },
  ro: { title: 'Pașaportul bateriei retras', heading: 'Acest pașaport al bateriei a fost retras', body: 'Producătorul l-a retras din cauza unei erori sau a unei rechemări.', hint: 'Această baterie nu a fost reciclată: pașaportul unei baterii reciclate se încheie cu o pagină proprie. Pentru întrebări despre baterie, contactați producătorul sau vânzătorul acesteia.' },
  sk: { title: 'Pas batérie stiahnutý', heading: 'Tento pas batérie bol stiahnutý', body: 'Výrobca ho stiahol pre chybu alebo stiahnutie výrobku z trhu.', hint: 'Táto batéria nebola recyklovaná: pas recyklovanej batérie končí vlastnou stránkou. S otázkami o batérii sa obráťte na jej výrobcu alebo predajcu.' },
  sl: { title: 'Potni list baterije umaknjen', heading: 'Ta potni list baterije je bil umaknjen', body: 'Proizvajalec ga je umaknil zaradi napake ali odpoklica.', hint: 'Ta baterija ni bila reciklirana: potni list reciklirane baterije se konča z lastno stranjo. Za vprašanja o bateriji se obrnite na njenega proizvajalca ali prodajalca.' },
  sv: { title: 'Batteripasset har dragits tillbaka', heading: 'Detta batteripass har dragits tillbaka', body: 'Tillverkaren har dragit tillbaka det på grund av ett fel eller en återkallelse.', hint: 'Batteriet har inte återvunnits: passet för ett återvunnet batteri avslutas med en egen sida. Kontakta batteriets tillverkare eller säljare om du har frågor om batteriet.' },
};
