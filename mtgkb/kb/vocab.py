"""The mtgkb vocabulary as one closed namespace.

``V.Card`` is the IRI string of the class ``mtgkb:Card``; a misspelt term (``V.Crad``) is an
AttributeError, not a silently new IRI. Every term here is declared, with a label and a comment, in
``ontology/mtgkb.ttl``; a test keeps the two in step. Plain strings keep the hot path free of rdflib.
"""

from __future__ import annotations

from mtgkb.kb.iris import VOCAB

_TERMS = """
Card Face Legalities Ability ActivatedAbility StaticAbility TriggeredAbility KeywordAbility
Mechanic PartnerAbility Requirement RulesConcept CopyRule
Zone Phase Step BlockedStatus ActionKind Timing PairingRule
Rule Edition GlossaryEntry Ruling Dataset
RuleVersion versionOf numberInEdition validFrom validUntil previousVersion changeKind editionIndex
writtenAgainst
Activate Cast PutOntoBattlefield DesignateCommander ManaAbility SpecialAction
BlockedStatusUndecided Blocked Unblocked
InstantTiming SorceryTiming
SameAbility SameAbilityText MutualName BackgroundPairing DoctorPairing
Layout layoutName characteristicsFrom castableFace FaceState Transformed Flipped FaceDown
permanentMayBe permanentNeverIs CharacteristicsRule FirstFaceOnly AllFacesCombined
colorIndicator knownOnlyByName MeldedFace meldsInto meldPartName PrototypeCharacteristics hasPrototype
OffBattlefieldCharacteristics hasOffBattlefieldCharacteristics
name oracleId layout hasFace faceIndex manaCost manaValue typeLine cardType supertype subtype
oracleText power toughness loyalty defense colorIdentity colors commanderLegality hasAbility isFunny
alsoNamed legalities legalIn bannedIn restrictedIn
instantiates abilityCost abilityText partnerText partnerWithName partnerWith grants grantedTo
AbilityParameter parameterTemplate
changesMechanic
keyword variantOf functionsIn actionKind hasRequirement entersTapped entersAttacking
destinationZone isAlternativeCost affectsCommanderTax pairingRule partnerCandidate
castsAllFaces castsPrintingFace castsPrototype
hasEveryCreatureType consequenceOf
CommanderPair pairMember pairedThrough pairedByCard notModelled
prohibitsAction exemptsAction
phaseOrder inPhase stepOrder nextStep nextPhase isFirstStep isOptional
playersReceivePriority blockedStatusDecided attackersMayExist priorityWhenStackNotEmpty
possibleOnlyWhen
requiresZone requiresStep requiresStepProperty requiresActivePlayer requiresTiming
requiresCardType requiresSupertype requiresSubtype requiresOnlyListedSubtypes requiresControlByYou
requiresAttacking requiresBlockedStatus requiresTapped requiresEmptyStack
requiresPowerToughnessBox requiresAbility alternativeRequirement
countsAction countsFromZone taxPerCount
copiableValue notCopiable
CopyEffect CopyException CopiedObject copyMode copyTarget copyCondition hasCopyException exceptionKind
copyCharacteristic exceptionValue exceptionCount exceptionOnlyIfType copiesWhat objectRelation
requiresAnyCardType excludesSupertype excludesSubtype
requiresOther requiresToken isTargeted requiresEnteredFrom
TargetObject ActivationPhrase costPattern restrictionPattern targetPattern effectPattern addsRequirement
setsZone
unmodelledPart abilityPosition requiresNoSummoningSickness requiresNoLoyaltyActivationThisTurn
requiresLoyaltyAtLeast newThisTurn loyaltyCounters loyaltyActivationsThisTurn
numberTemplate numberGoesTo requiresLifeAtLeast requiresCountersToRemove lifeTotal counterCount
requiresNoActivationThisTurn activationsThisTurn requiresCrewPower
DescriptionWord wordPattern wordGoesTo objectCount CountedObject waivesRequirement requiresColor excludesColor
requiresZoneOfAnyPlayer requiresOwnedByYou requiresStepBefore requiresEnergyAtLeast energyCount
requiresSpell isAbilityOnStack actionCost attachedTo usableFaceDown requiresFaceDown isFaceDown actionName
requiresFaceDownAs faceDownAs requiresFaceUpCardType faceUpCardType ConditionKeyword CostInWordsKeyword
castsFromAnotherZone enabledBy withoutPayingManaCost castsFaceIndex requiresExiledAs exiledAs viaName
activationsThisGame requiresNeverActivated
castsWithoutTargets SpellTargets hasSpellTargets
unreadCostChange unreadCastSentence unreadCastPermission
requiresActivationsThisTurnBelow
requiresCameAs cameAs requiresAnotherSpellCast spellsCastThisTurn requiresOpponentLostLife lifeLostThisTurn
CombatDamageSource dealtCombatDamageWith requiresCombatDamageBySharedType
requiresCombatDamageByKindOrCommander reducesCostBy PermissionKeyword requiresTopOfLibrary isTopOfLibrary
Moment AsItIsDone RightAfter OnTheStack AsItResolves Later happensAt
ruleNumber title summary text parentRule refersTo inEdition effectiveDate sourceFile
glossaryTerm definesRules
rulingDate rulingSource aboutCard mentions
citesRule fromSource importedAt recordCount
decidingRule
RequirementSubject SourceObject CostObject GameState appliesTo requiresPriority requiresCommander
requiresNotCardType
waivedByCardType waivedByMechanic KeywordForm PlainKeyword CostKeyword keywordForm
grantedInZone grantedToCardType grantedOnlyToYours costReduction costIncrease
Outcome hasOutcome onlyWhen
Situation Player GameObject currentStep activePlayer priorityPlayer hasPlayer hasObject inZone owner
controller enteredFrom representsCard isToken isTapped attacks blockedStatus isCommander stackIndex
availableMana castsFromCommandZone Verdict Check aboutSituation answer hasCheck evaluates holds because
cannotTell
"""


class _ClosedNamespace(type):
    def __getattr__(cls, term: str) -> str:
        raise AttributeError(f"{term!r} is not a term of the mtgkb vocabulary (see ontology/mtgkb.ttl)")

    def __iter__(cls):
        return iter(cls._terms)

    def __contains__(cls, iri: object) -> bool:
        return isinstance(iri, str) and iri.startswith(VOCAB) and iri[len(VOCAB) :] in cls._terms


class V(metaclass=_ClosedNamespace):
    """Closed namespace of mtgkb vocabulary IRIs, e.g. ``V.citesRule``."""

    _terms: tuple[str, ...] = tuple(_TERMS.split())


for _term in V._terms:
    setattr(V, _term, VOCAB + _term)
del _term

PREFIXES = {
    "mtgkb": VOCAB,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "sh": "http://www.w3.org/ns/shacl#",
    "dcterms": "http://purl.org/dc/terms/",
    "card": "https://w3id.org/mtgkb/card/",
    "mechanic": "https://w3id.org/mtgkb/mechanic/",
    "step": "https://w3id.org/mtgkb/step/",
    "phase": "https://w3id.org/mtgkb/phase/",
    "zone": "https://w3id.org/mtgkb/zone/",
    "cr": "https://w3id.org/mtgkb/cr/",
    "requirement": "https://w3id.org/mtgkb/requirement/",
    "outcome": "https://w3id.org/mtgkb/outcome/",
    "phrase": "https://w3id.org/mtgkb/phrase/",
    "concept": "https://w3id.org/mtgkb/concept/",
    "ruling": "https://w3id.org/mtgkb/ruling/",
    "ability": "https://w3id.org/mtgkb/ability/",
    "face": "https://w3id.org/mtgkb/face/",
    "layout": "https://w3id.org/mtgkb/layout/",
    "melded": "https://w3id.org/mtgkb/melded/",
}

RDF_TYPE = PREFIXES["rdf"] + "type"
RDFS_LABEL = PREFIXES["rdfs"] + "label"
RDFS_COMMENT = PREFIXES["rdfs"] + "comment"


def sparql_prefixes() -> str:
    """PREFIX lines for every prefix above, for queries written in Python."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
