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
